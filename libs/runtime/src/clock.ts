/**
 * "Now" is injected, so tests can pin today and the moment around midnight in a zone, and move
 * time forward instead of waiting for it: every "what time is it" of the source (tokens, sessions,
 * socket expiry, dates of records) asks the process's one clock, and every "wake me at that time"
 * is a timer of the same clock. Durations (how long a call took) are measured with
 * `performance.now()`, which no test needs to move.
 */
export interface Clock {
  now(): Date;
  /** Calls `fn` once `ms` have passed on this clock; the returned function cancels it. */
  after(ms: number, fn: () => void): () => void;
}

export const systemClock: Clock = {
  // eslint-disable-next-line no-restricted-syntax -- the one reading of the wall clock
  now: () => new Date(),
  after: (ms, fn) => {
    // A timer never keeps the process alive: what it guards ends with the process anyway.
    const timer = setTimeout(fn, Math.max(0, ms)).unref();
    return () => clearTimeout(timer);
  },
};

/** A clock that stands still until told: `set` and `advance` move it and run the timers due by then, in order. */
export interface ManualClock extends Clock {
  set(at: Date | string): void;
  advance(ms: number): void;
}

export function fixedClock(at: Date | string): ManualClock {
  let t = new Date(at).getTime();
  let seq = 0;
  const timers = new Map<number, { due: number; fn: () => void }>();
  const moveTo = (to: number) => {
    // A timer due by `to` runs with the clock at its own instant, so what it reads is its time.
    for (;;) {
      const next = [...timers.entries()]
        .filter(([, timer]) => timer.due <= to)
        .sort(([a, x], [b, y]) => x.due - y.due || a - b)[0];
      if (!next) break;
      timers.delete(next[0]);
      t = Math.max(t, next[1].due);
      next[1].fn();
    }
    t = to;
  };
  return {
    now: () => new Date(t),
    after: (ms, fn) => {
      const id = seq++;
      timers.set(id, { due: t + Math.max(0, ms), fn });
      return () => void timers.delete(id);
    },
    set: (v) => moveTo(new Date(v).getTime()),
    advance: (ms) => moveTo(t + ms),
  };
}
