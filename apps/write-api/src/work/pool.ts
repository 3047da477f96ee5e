import { Worker } from 'node:worker_threads';
import { AppError } from '@guest/http-kit';
import type { WorkRequest, WorkResult, WorkTask } from './tasks.ts';

export interface WorkPoolOptions {
  /** Threads at most; each is started on first need and kept. */
  size: number;
  /** Tasks that may wait for a thread; one more is refused with 503. */
  queueMax: number;
  /** `Retry-After` of that refusal. */
  retryAfterS: number;
}

interface Pending {
  task: WorkTask;
  transfer: ArrayBuffer[];
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
}

interface Slot {
  worker: Worker;
  busy: Pending | null;
}

// The worker runs TypeScript like the rest of the server: tsx's loader, found from here (the
// server's own `--import tsx` is not there in every process that starts a pool, a test's included).
const TSX = import.meta.resolve('tsx');
const ENTRY = new URL('./worker.ts', import.meta.url);

/**
 * Work that can hold a CPU for long (decoding an uploaded image, HEIC above all; estimating a
 * password's strength) runs here, off the event loop (issue 32 point 5: a 9.6 KB HEIC of
 * 7000x5600 held the main thread for 0.7-2 s, and 4 of them pushed `/livez` to a median of
 * 0.4 s). At most `size` threads work at once and at most `queueMax` tasks wait; beyond, a task
 * is refused at once with 503 `unavailable` and `Retry-After`, so a burst of uploads costs a
 * bounded amount of memory and CPU and the rest of the API keeps answering.
 */
export class WorkPool {
  private readonly slots: Slot[] = [];
  private readonly queue: Pending[] = [];
  private closed = false;

  constructor(private readonly opts: WorkPoolOptions) {}

  /** Tasks running and waiting now (for tests and metrics). */
  get load(): { running: number; waiting: number } {
    return { running: this.slots.filter((s) => s.busy).length, waiting: this.queue.length };
  }

  run<K extends WorkTask['kind']>(
    task: Extract<WorkTask, { kind: K }>,
    transfer: ArrayBuffer[] = [],
  ): Promise<WorkResult<K>> {
    if (this.closed) return Promise.reject(new AppError('unavailable', 'The server is shutting down; retry.'));
    const free = this.slots.find((s) => !s.busy);
    const canStart = free !== undefined || this.slots.length < this.opts.size;
    if (!canStart && this.queue.length >= this.opts.queueMax) {
      return Promise.reject(
        new AppError(
          'unavailable',
          'Too much of this work is under way; retry shortly.',
          { reason: 'busy', retry_after: this.opts.retryAfterS },
          { 'retry-after': String(this.opts.retryAfterS) },
        ),
      );
    }
    return new Promise<WorkResult<K>>((resolve, reject) => {
      const pending: Pending = { task, transfer, resolve: resolve as (v: unknown) => void, reject };
      if (canStart) this.start(free ?? this.spawn(), pending);
      else this.queue.push(pending);
    });
  }

  /**
   * Starts every thread and has it load what its tasks need (a thread takes a second or two to
   * start: TypeScript, sharp, libheif, the password lists), so that the first uploads and sign-ups
   * after a start do not pay for it, and a start does not wait for it either.
   */
  warm(): Promise<void> {
    const starts: Array<Promise<unknown>> = [];
    while (this.slots.length < this.opts.size && !this.closed) {
      const slot = this.spawn();
      starts.push(
        new Promise((resolve, reject) => this.start(slot, { task: { kind: 'warm' }, transfer: [], resolve, reject })),
      );
    }
    return Promise.all(starts).then(() => undefined);
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const p of this.queue.splice(0)) p.reject(new AppError('unavailable', 'The server is shutting down; retry.'));
    await Promise.all(this.slots.splice(0).map((s) => s.worker.terminate()));
  }

  private spawn(): Slot {
    const worker = new Worker(ENTRY, { execArgv: ['--import', TSX] });
    const slot: Slot = { worker, busy: null };
    worker.on('message', (msg: { ok: true; value: unknown } | { ok: false; error: string }) => {
      const done = slot.busy;
      slot.busy = null;
      if (done) {
        if (msg.ok) done.resolve(msg.value);
        else done.reject(new Error(`work failed in its thread: ${msg.error}`));
      }
      this.next(slot);
    });
    // A thread that dies (out of memory, a crash of a native decoder) takes only its task with it.
    const lost = (err: unknown) => {
      const i = this.slots.indexOf(slot);
      if (i >= 0) this.slots.splice(i, 1);
      slot.busy?.reject(err instanceof Error ? err : new Error(`work thread exited: ${String(err)}`));
      slot.busy = null;
      const waiting = this.queue.shift();
      if (waiting && !this.closed) this.start(this.spawn(), waiting);
    };
    worker.on('error', lost);
    worker.on('exit', (code) => {
      if (this.slots.includes(slot)) lost(new Error(`work thread exited with code ${code}`));
    });
    // The pool never keeps the process alive on its own.
    worker.unref();
    this.slots.push(slot);
    return slot;
  }

  private start(slot: Slot, pending: Pending): void {
    slot.busy = pending;
    const request: WorkRequest = pending.task;
    slot.worker.postMessage(request, pending.transfer);
  }

  private next(slot: Slot): void {
    const waiting = this.queue.shift();
    if (waiting) this.start(slot, waiting);
  }
}
