import type { SearchEngine } from './types.ts';

/** One finished engine call: the wrapper's operation name (`search`, `bulk`…), seconds, outcome. */
export type EngineCallObserver = (operation: string, seconds: number, outcome: 'ok' | 'error') => void;

/**
 * The engine with every promise-returning operation timed, whatever adapter is behind it
 * (OpenSearch, Elasticsearch): timing lives at the wrapper's surface, so adapters need no
 * metrics code. Observers are added and removed at any time (a server's metrics, a test);
 * an observer that throws never fails the call. `scan` (a generator) and `close` are not timed.
 */
export function withCallTiming(
  engine: SearchEngine,
): SearchEngine & { observeCalls(observer: EngineCallObserver): () => void } {
  const observers = new Set<EngineCallObserver>();
  const notify = (operation: string, started: number, outcome: 'ok' | 'error') => {
    const seconds = (performance.now() - started) / 1000;
    for (const o of observers) {
      try {
        o(operation, seconds, outcome);
      } catch {
        // metrics must never change the answer
      }
    }
  };
  const timed = new Proxy(engine, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver) as unknown;
      if (
        typeof value !== 'function' ||
        typeof prop !== 'string' ||
        prop === 'scan' ||
        prop === 'close' ||
        prop === 'observeCalls'
      )
        return value;
      return (...args: unknown[]) => {
        const started = performance.now();
        const result = (value as (...a: unknown[]) => unknown).apply(target, args);
        if (!(result instanceof Promise)) return result;
        return result.then(
          (v) => {
            notify(prop, started, 'ok');
            return v;
          },
          (err: unknown) => {
            notify(prop, started, 'error');
            throw err;
          },
        );
      };
    },
  });
  return Object.assign(timed, {
    observeCalls(observer: EngineCallObserver) {
      observers.add(observer);
      return () => void observers.delete(observer);
    },
  });
}
