import net from 'node:net';
import { randomBytes } from 'node:crypto';
import type { TestApp } from '../support/test-app.ts';
import { http } from '../support/http.ts';

export const PASSWORD = 'correct horse battery staple';

/** Limits a file full of sign-ups from one address would trip, raised unless a test is about them. */
export const relaxedLimits = {
  RATE_LIMIT_LOGIN_PER_MIN: 1000,
  CAPTCHA_AFTER_REGISTRATIONS_PER_ADDRESS: 1000,
  CAPTCHA_AFTER_FAILED_LOGINS_PER_ADDRESS: 1000,
  CAPTCHA_AFTER_RESET_REQUESTS_PER_ADDRESS: 1000,
  MAIL_WORKER: false,
};

export function uniqueEmail(tag = 'guest'): string {
  return `${tag}-${randomBytes(5).toString('hex')}@example.com`;
}

export async function signUp(
  t: TestApp,
  headers: Record<string, string> = {},
): Promise<{ email: string; token: string; accountId: string }> {
  const email = uniqueEmail();
  const res = await http(t.url, 'POST', '/v1/auth/register', {
    body: { first_name: 'Anna', last_name: 'Lee', email, password: PASSWORD, accept_terms: true },
    headers,
  });
  if (res.status !== 201) throw new Error(`register failed: ${res.status} ${res.text}`);
  const { rows } = await t.sql.query('select id from accounts where email = $1', [email]);
  return {
    email,
    token: res.body.access_token,
    accountId: rows[0].id,
  };
}

/** A port on this machine on which nothing listens: what a client sees of a stopped service. */
export async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** One request written as raw bytes (what a browser or fetch would never send); the raw answer. */
export function rawRequest(url: string, bytes: string | Buffer, timeoutMs = 5000): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer in ${timeoutMs} ms; got: ${Buffer.concat(chunks).toString('latin1').slice(0, 200)}`));
    }, timeoutMs);
    socket.on('data', (c) => chunks.push(c));
    socket.on('error', () => {}); // a reset after the answer is fine: the answer is what counts
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(Buffer.concat(chunks).toString('latin1'));
    });
    socket.write(bytes);
  });
}

/** Status, headers (lower-case names) and parsed JSON body of a raw HTTP/1.1 answer. */
export function parseRaw(raw: string): { status: number; headers: Record<string, string>; body: any } {
  const [head = '', ...rest] = raw.split('\r\n\r\n');
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers: Record<string, string> = {};
  for (const l of lines) {
    const i = l.indexOf(':');
    if (i > 0) headers[l.slice(0, i).trim().toLowerCase()] = l.slice(i + 1).trim();
  }
  let body: unknown;
  try {
    body = JSON.parse(rest.join('\r\n\r\n'));
  } catch {
    body = undefined;
  }
  return { status: Number(statusLine.split(' ')[1]), headers, body };
}

/** Milliseconds a call takes. */
export async function timed<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const start = performance.now();
  const value = await fn();
  return { ms: performance.now() - start, value };
}

/**
 * A TCP forwarder on a loopback port to a real service: the app is pointed at it, and `stop()`
 * makes the service vanish for that app only (open connections cut, the port closed: exactly
 * what a client sees of a stopped server), `start()` brings it back on the same port.
 */
export async function startForwarder(target: { host: string; port: number }) {
  const sockets = new Set<net.Socket>();
  let server: net.Server | null = null;
  let port = 0;
  const open = async () => {
    server = net.createServer((client) => {
      const upstream = net.connect(target.port, target.host);
      sockets.add(client).add(upstream);
      const drop = () => {
        client.destroy();
        upstream.destroy();
        sockets.delete(client);
        sockets.delete(upstream);
      };
      client.on('error', drop).on('close', drop);
      upstream.on('error', drop).on('close', drop);
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => server!.listen(port, '127.0.0.1', resolve));
    port = (server!.address() as net.AddressInfo).port;
  };
  await open();
  return {
    get port() {
      return port;
    },
    async stop() {
      const s = server;
      server = null;
      for (const sock of sockets) sock.destroy();
      sockets.clear();
      if (s) await new Promise<void>((resolve) => s.close(() => resolve()));
    },
    async start() {
      if (!server) await open();
    },
  };
}

/** One HTTP/1.1 request of a burst: JSON body, and the headers that make it this client's. */
export interface BurstRequest {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: unknown;
}

export interface BurstAnswer {
  status: number;
  headers: Record<string, string>;
  body: any;
}

/**
 * The attack of issue 32: every request on its own socket, written except for its last byte
 * (the server cannot act on a body it has not finished), then all the last bytes in one
 * synchronous loop, in the order given. What the server does with them then is as concurrent
 * as it gets from outside; the answers come back in the order of `requests`.
 */
export async function releaseTogether(
  url: string,
  requests: BurstRequest[],
  timeoutMs = 60_000,
): Promise<BurstAnswer[]> {
  const { hostname, port } = new URL(url);
  const held = await Promise.all(
    requests.map(async (r) => {
      const body = r.body === undefined ? '' : JSON.stringify(r.body);
      const head = [
        `${r.method} ${r.path} HTTP/1.1`,
        `Host: ${hostname}:${port}`,
        'Connection: close',
        ...(body ? ['Content-Type: application/json', `Content-Length: ${Buffer.byteLength(body)}`] : []),
        ...Object.entries(r.headers ?? {}).map(([k, v]) => `${k}: ${v}`),
      ];
      // Without a body the request ends with its blank line: its last "\n" is the held byte.
      const bytes = Buffer.from(`${head.join('\r\n')}\r\n\r\n${body}`, 'utf8');
      const socket = net.connect(Number(port), hostname);
      const chunks: Buffer[] = [];
      const answer = new Promise<string>((resolve, reject) => {
        socket.on('data', (c) => chunks.push(c));
        socket.on('error', reject);
        socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
      });
      answer.catch(() => {}); // observed below, after the release
      await new Promise<void>((resolve, reject) => {
        socket.once('error', reject);
        socket.write(bytes.subarray(0, -1), (err) => (err ? reject(err) : resolve()));
      });
      return { socket, last: bytes.subarray(-1), answer };
    }),
  );
  for (const h of held) h.socket.write(h.last);
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      for (const h of held) h.socket.destroy();
      reject(new Error(`a burst of ${requests.length} was not answered within ${timeoutMs} ms`));
    }, timeoutMs);
  });
  try {
    const raw = await Promise.race([Promise.all(held.map((h) => h.answer)), timeout]);
    return raw.map((r) => {
      const parsed = parseRaw(r);
      if (!parsed.status) throw new Error(`no HTTP answer: ${r.slice(0, 200)}`);
      return parsed;
    });
  } finally {
    clearTimeout(timer);
  }
}
