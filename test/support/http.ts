/** Small fetch wrapper for tests: JSON in, status + headers + parsed JSON out. */
export interface HttpResult<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export async function http<T = any>(
  base: string,
  method: string,
  path: string,
  opts: { body?: unknown; rawBody?: string | Buffer; headers?: Record<string, string>; token?: string } = {},
): Promise<HttpResult<T>> {
  const headers: Record<string, string> = { ...opts.headers };
  let body: string | Buffer | undefined;
  if (opts.rawBody !== undefined) body = opts.rawBody;
  else if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    headers['content-type'] ??= 'application/json';
  }
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  const res = await fetch(`${base}${path}`, { method, headers, body });
  const text = await res.text();
  let parsed: unknown = undefined;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: res.status, headers: res.headers, body: parsed as T, text };
}

/** Asserts the spec's error envelope and returns it. */
export function expectEnvelope(res: HttpResult, status: number, code: string) {
  const ctx = `${res.status} ${res.text.slice(0, 300)}`;
  if (res.status !== status) throw new Error(`expected HTTP ${status} ${code}, got ${ctx}`);
  const e = res.body?.error;
  if (!e || e.code !== code) throw new Error(`expected error code ${code}, got ${ctx}`);
  if (typeof e.message !== 'string' || typeof e.request_id !== 'string' || typeof e.details !== 'object') {
    throw new Error(`envelope incomplete: ${ctx}`);
  }
  if (res.headers.get('x-request-id') !== e.request_id) {
    throw new Error(`X-Request-Id header ${res.headers.get('x-request-id')} differs from body ${e.request_id}`);
  }
  return e as { code: string; message: string; details: Record<string, any>; request_id: string };
}
