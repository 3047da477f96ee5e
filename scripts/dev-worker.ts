import { spawn, type ChildProcess } from 'node:child_process';
import type pino from 'pino';
import { repoRoot } from '@guest/config';

export interface WorkerSupervisor {
  /** The running worker's process id (undefined between an exit and the next start). */
  readonly pid: number | undefined;
  /** Starts after an unexpected exit so far. */
  readonly restarts: number;
  /** Stops the worker (SIGTERM: it finishes its batch; SIGKILL after `stopTimeoutMs`) and restarts nothing more. */
  stop(): Promise<void>;
}

type Output = 'pipe' | 'inherit' | 'ignore';

export interface SuperviseOptions {
  /** The worker's environment: the settings it reads as `indexer worker` does (process.env in dev). */
  env: NodeJS.ProcessEnv;
  log: pino.Logger;
  /** Pause before the first restart; it doubles with each exit, up to `maxDelayMs`. */
  firstDelayMs?: number;
  maxDelayMs?: number;
  /** A worker that ran this long before exiting starts again after `firstDelayMs`. */
  stableMs?: number;
  stopTimeoutMs?: number;
  /** stdin is ignored, the IPC channel is added: stdout and stderr of the worker (dev: its own). */
  output?: [Output, Output];
  /** Each worker process as it starts (tests read its output). */
  onStart?: (child: ChildProcess) => void;
}

/**
 * The indexer worker of `npm run dev`, as its own process: `indexer worker` (outbox drains, and
 * the hourly maintenance) started from here and started again whenever it exits without being
 * asked to, a crash, an out-of-memory kill or a `kill -9`, after a pause that doubles (1 s, 2 s,
 * … 30 s; back to 1 s once it has run a minute). Each exit is logged with its code or signal.
 * The API keeps serving meanwhile; catalog changes wait in the outbox and are applied when the
 * worker is back.
 *
 * Why a process and not the API's own: a crash in the worker (an uncaught error, memory) would
 * otherwise take the API down with it, and nothing inside a crashed process can restart it.
 * The worker runs in its own process group (Ctrl-C reaches dev, which stops it) and with an IPC
 * channel: if dev dies without stopping it, the channel closes and the worker stops itself.
 */
export function superviseIndexerWorker(opts: SuperviseOptions): WorkerSupervisor {
  const first = opts.firstDelayMs ?? 1000;
  const max = opts.maxDelayMs ?? 30_000;
  const stable = opts.stableMs ?? 60_000;
  const [out, err] = opts.output ?? ['inherit', 'inherit'];
  let child: ChildProcess | null = null;
  let stopping = false;
  let delay = first;
  let restarts = 0;
  let timer: NodeJS.Timeout | null = null;

  const start = () => {
    const startedAt = Date.now();
    const c = spawn(process.execPath, ['--import', 'tsx', 'indexer/src/cli.ts', 'worker'], {
      cwd: repoRoot,
      env: opts.env,
      stdio: ['ignore', out, err, 'ipc'],
      detached: true,
    });
    child = c;
    opts.log.info({ pid: c.pid }, 'indexer worker process started');
    opts.onStart?.(c);
    let ended = false;
    const onEnd = (code: number | null, signal: NodeJS.Signals | null, error?: Error) => {
      if (ended) return;
      ended = true;
      if (child === c) child = null;
      if (stopping) return;
      const ranMs = Date.now() - startedAt;
      if (ranMs >= stable) delay = first;
      const how = error ? `could not start: ${error.message}` : signal ? `killed by ${signal}` : `exit code ${code}`;
      opts.log.error(
        { pid: c.pid, code, signal, ran_s: Math.round(ranMs / 100) / 10, restart_in_s: delay / 1000 },
        `indexer worker exited (${how}); starting it again in ${delay / 1000} s`,
      );
      timer = setTimeout(() => {
        timer = null;
        if (stopping) return;
        restarts++;
        start();
      }, delay);
      delay = Math.min(delay * 2, max);
    };
    c.once('exit', (code, signal) => onEnd(code, signal));
    c.once('error', (e) => onEnd(null, null, e));
  };
  start();

  return {
    get pid() {
      return child?.pid;
    },
    get restarts() {
      return restarts;
    },
    async stop() {
      stopping = true;
      if (timer) clearTimeout(timer);
      const c = child;
      if (!c || c.exitCode !== null || c.signalCode !== null) return;
      const exited = new Promise<void>((resolve) => c.once('exit', () => resolve()));
      c.kill('SIGTERM');
      const force = setTimeout(() => c.kill('SIGKILL'), opts.stopTimeoutMs ?? 15_000);
      await exited;
      clearTimeout(force);
      opts.log.info({ pid: c.pid }, 'indexer worker stopped');
    },
  };
}
