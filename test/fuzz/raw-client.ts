import http from 'node:http';

/** One request exactly as the fuzzer built it: the path is sent byte for byte, already encoded. */
export interface RawRequest {
  method: string;
  /** Path and query, percent-encoded by the caller (hostile ones on purpose badly). */
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
}

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** At most `maxBodyBytes` of the body. */
  body: Buffer;
  ms: number;
}

/** What happened instead of an answer: the server closed the connection, or never answered in time. */
export class NoAnswer extends Error {}

class TimedOut extends NoAnswer {}

/**
 * A tiny HTTP client over node:http for hostile requests: no normalisation of the path, no
 * re-encoding, no automatic content type; keep-alive connections shared by the fuzz workers.
 */
export class RawClient {
  private readonly agent: http.Agent;
  private readonly base: URL;

  constructor(
    baseUrl: string,
    private readonly opts: { maxSockets: number; timeoutMs: number; maxBodyBytes?: number },
  ) {
    this.base = new URL(baseUrl);
    this.agent = new http.Agent({ keepAlive: true, maxSockets: opts.maxSockets });
  }

  /**
   * Sends one request. A keep-alive connection the server closed just as it was reused (after
   * answering a request it will not read past, say) fails without the request having reached
   * the server: such a request is sent again once, on a new connection. No answer then either
   * is a `NoAnswer`.
   */
  async send(req: RawRequest): Promise<RawResponse> {
    try {
      return await this.sendOn(req, this.agent);
    } catch (err) {
      if (err instanceof TimedOut) throw err;
      // A connection reset on a fresh connection too can be the machine's (two cores shared by
      // many test runs), so it gets a second chance; a server that drops the request every time
      // fails both, and a hang is never tried again.
      this.retried++;
      return this.sendOn(req, false);
    }
  }

  /** Requests sent a second time after their connection failed. */
  retried = 0;

  private sendOn(req: RawRequest, agent: http.Agent | false): Promise<RawResponse> {
    const started = performance.now();
    const maxBody = this.opts.maxBodyBytes ?? 4 * 1024 * 1024;
    return new Promise<RawResponse>((resolve, reject) => {
      let settled = false;
      const fail = (err: Error) => {
        if (settled) return;
        settled = true;
        reject(err);
      };
      let r: http.ClientRequest;
      try {
        r = http.request({
          host: this.base.hostname,
          port: this.base.port,
          method: req.method,
          path: req.path,
          headers: {
            ...req.headers,
            ...(req.body !== undefined ? { 'content-length': String(req.body.length) } : {}),
          },
          agent,
          // Node refuses a few hostile shapes itself; that is the fuzzer's problem, not the server's.
          insecureHTTPParser: false,
        });
      } catch (err) {
        fail(err as Error);
        return;
      }
      r.setTimeout(this.opts.timeoutMs, () => {
        r.destroy(new TimedOut(`no answer within ${this.opts.timeoutMs} ms`));
      });
      r.on('error', (err) => {
        if (err instanceof NoAnswer) fail(err);
        else
          fail(
            new NoAnswer(
              `connection failed${r.reusedSocket ? ' (reused)' : ''}${answered ? ' mid-answer' : ''}: ${err.message}`,
            ),
          );
      });
      let answered = false;
      r.on('response', (res) => {
        answered = true;
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          if (size < maxBody) chunks.push(c);
          size += c.length;
        });
        res.on('error', (err) => fail(new NoAnswer(`answer cut: ${err.message}`)));
        res.on('end', () => {
          if (settled) return;
          settled = true;
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks),
            ms: performance.now() - started,
          });
        });
      });
      r.end(req.body);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}
