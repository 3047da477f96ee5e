/**
 * The server's log lines, captured (`startTestApp({ logStream: log.stream })`), with a promise
 * for the moment a request has written its last line: what a test asserts about a request's log
 * is complete then, without waiting a fixed time for the lines to arrive.
 */
export interface CapturedLog {
  stream: { write(line: string): void };
  lines: string[];
  /**
   * Resolves once the request with this id has logged `request completed` (its last line, written
   * after the answer has gone out); rejects after `timeoutMs` saying so.
   */
  requestDone(requestId: string, timeoutMs?: number): Promise<void>;
}

const isEnd = (line: string, requestId: string) =>
  line.includes(`"reqId":${JSON.stringify(requestId)}`) && line.includes('"msg":"request completed"');

export function captureLog(): CapturedLog {
  const lines: string[] = [];
  const waiting = new Set<{ requestId: string; done: () => void }>();
  return {
    lines,
    stream: {
      write(line: string) {
        lines.push(line);
        for (const w of waiting) if (isEnd(line, w.requestId)) w.done();
      },
    },
    requestDone(requestId, timeoutMs = 10_000) {
      if (lines.some((l) => isEnd(l, requestId))) return Promise.resolve();
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiting.delete(w);
          reject(new Error(`request ${requestId} logged no "request completed" within ${timeoutMs} ms`));
        }, timeoutMs);
        const w = {
          requestId,
          done: () => {
            clearTimeout(timer);
            waiting.delete(w);
            resolve();
          },
        };
        waiting.add(w);
      });
    },
  };
}
