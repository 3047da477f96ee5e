import { breachedList, PASSWORD_MIN, passwordProblem, type PasswordProblem } from '@guest/auth/password-rules';
import { ImageRefused, processAvatar, type ImageLimits } from '../media/image.ts';

/**
 * What the pool's threads do (`WorkPool`, `worker.ts`). Each task is plain data both ways (it is
 * copied between threads), and its work imports nothing of the server: no connection, no Fastify.
 */
export type WorkTask =
  | { kind: 'avatar'; input: Uint8Array; limits: ImageLimits }
  | { kind: 'password'; password: string; email: string | null; personal: string[] }
  /** Loads what the other tasks need, once per thread (`WorkPool.warm`). */
  | { kind: 'warm' };

export type AvatarOutcome =
  | { ok: true; data: Uint8Array; width: number; height: number }
  | { ok: false; reason: string; message: string; extra: Record<string, unknown> };

export type WorkResult<K extends WorkTask['kind']> = K extends 'avatar'
  ? AvatarOutcome
  : K extends 'password'
    ? PasswordProblem | null
    : K extends 'warm'
      ? null
      : never;

export type WorkRequest = WorkTask;

/** Runs one task; a refusal of the input is an outcome, anything else a failure of the task. */
export async function perform(task: WorkTask): Promise<WorkResult<WorkTask['kind']>> {
  switch (task.kind) {
    case 'avatar':
      try {
        const image = await processAvatar(
          Buffer.from(task.input.buffer, task.input.byteOffset, task.input.byteLength),
          task.limits,
        );
        // A copy of its own: moved to the main thread whole, never a view of a shared pool.
        return { ok: true, data: new Uint8Array(image.data), width: image.width, height: image.height };
      } catch (err) {
        if (err instanceof ImageRefused)
          return { ok: false, reason: err.reason, message: err.message, extra: err.extra };
        throw err;
      }
    case 'password':
      return passwordProblem(task.password, task.email, task.personal);
    case 'warm':
      breachedList(PASSWORD_MIN);
      return null;
  }
}
