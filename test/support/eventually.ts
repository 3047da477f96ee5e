import { inspect } from 'node:util';

export interface EventuallyOptions<T> {
  /** Give up after this long (default 15 s). */
  timeoutMs?: number;
  /** Pause between two checks (default 100 ms). */
  intervalMs?: number;
  /** When the value is the one awaited (default: any truthy value). */
  until?: (value: T) => boolean;
}

/** Thrown by a check that knows waiting longer is pointless (the process it waits for exited): fails at once. */
export class StopWaiting extends Error {}

/**
 * Waits for something another process, worker or job does: runs `check` until its value is the
 * one awaited (`until`, or truthy) and returns that value. A check that throws is run again (the
 * server is not listening yet), unless it throws `StopWaiting`. Past `timeoutMs` it fails with
 * what was awaited and the last value (or error) seen, so a red test says how far things got.
 *
 * The one way tests wait: no fixed sleeps, no loops of their own.
 */
export async function eventually<T>(
  what: string,
  check: () => T | Promise<T>,
  opts: EventuallyOptions<T> = {},
): Promise<T> {
  const { timeoutMs = 15_000, intervalMs = 100, until = Boolean } = opts;
  const started = Date.now();
  let last: { value: T } | { error: unknown } | undefined;
  let checks = 0;
  for (;;) {
    checks++;
    try {
      const value = await check();
      if (until(value)) return value;
      last = { value };
    } catch (error) {
      if (error instanceof StopWaiting) throw new Error(`gave up waiting for ${what}: ${error.message}`);
      last = { error };
    }
    const left = started + timeoutMs - Date.now();
    if (left <= 0) {
      const seen =
        last === undefined
          ? 'nothing'
          : 'error' in last
            ? `an error: ${last.error instanceof Error ? last.error.message : inspect(last.error)}`
            : inspect(last.value, { depth: 4, breakLength: 120, maxArrayLength: 20, maxStringLength: 2000 });
      throw new Error(`timed out after ${timeoutMs} ms (${checks} checks) waiting for ${what}; last seen: ${seen}`);
    }
    await new Promise((r) => setTimeout(r, Math.min(intervalMs, left)));
  }
}
