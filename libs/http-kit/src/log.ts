import type { FastifyBaseLogger, FastifyServerOptions } from 'fastify';
import { destination, symbols, type DestinationStream, type Logger } from 'pino';

/**
 * Own fields of an error that can hold request data: the parameters and text of a failed query
 * (drizzle's `params`/`query`, pg's `parameters`), pg's `detail` (`Key (email)=(…) already
 * exists`), `where` (`JSON data, line 1: …`) and `internalQuery`, and bodies of client errors.
 */
const REDACTED_KEYS = new Set([
  'params',
  'parameters',
  'query',
  'detail',
  'where',
  'internalQuery',
  'internalPosition',
  'body',
  'input',
  'values',
  'rawPacket',
]);
const REDACTED = '[redacted]';
const MAX_CAUSES = 5;

function isErrorLike(v: unknown): v is Error & Record<string, unknown> {
  return !!v && typeof v === 'object' && typeof (v as Error).message === 'string';
}

/** A Postgres server error (pg's DatabaseError): a severity and a five-character SQLSTATE. */
function isPgServerError(err: Record<string, unknown>): boolean {
  return typeof err.severity === 'string' && typeof err.code === 'string' && /^[0-9A-Z]{5}$/.test(err.code);
}

/**
 * The message without request data: a failed query's message (drizzle: `Failed query: <sql>
 * params: <values>`) is replaced; Postgres quotes the offending value in its messages
 * (`invalid input syntax for type uuid: "…"`, `value "…" is out of range`), so quoted parts go.
 */
function safeMessage(err: Error & Record<string, unknown>): string {
  if ('params' in err || 'parameters' in err || /^Failed query:/.test(err.message)) {
    return 'Failed query (its text and parameters are not logged)';
  }
  if (isPgServerError(err)) return err.message.replace(/"[^"]*"/g, '"…"');
  return err.message;
}

function serializeError(err: Error & Record<string, unknown>, depth: number): Record<string, unknown> {
  const type = (typeof err.constructor === 'function' && err.constructor.name) || err.name || 'Error';
  const message = safeMessage(err);
  const frames = typeof err.stack === 'string' ? err.stack.split('\n').filter((l) => /^\s+at /.test(l)) : [];
  const out: Record<string, unknown> = { type, message, stack: [`${type}: ${message}`, ...frames].join('\n') };
  for (const key of Object.keys(err)) {
    if (key === 'cause' || key === 'errors' || key in out) continue;
    const val = err[key];
    if (REDACTED_KEYS.has(key)) out[key] = REDACTED;
    else if (typeof val === 'string') out[key] = val.length > 500 ? `${val.slice(0, 500)}…` : val;
    else if (typeof val === 'number' || typeof val === 'boolean') out[key] = val;
    else if (key === 'meta' && val && typeof val === 'object' && 'statusCode' in val) {
      // The search engine client's response: the status only (its request holds the user's query).
      out.meta = { statusCode: (val as { statusCode: unknown }).statusCode };
    }
  }
  if (depth < MAX_CAUSES && isErrorLike(err.cause)) out.cause = serializeError(err.cause as never, depth + 1);
  if (depth < MAX_CAUSES && Array.isArray(err.errors)) {
    out.aggregateErrors = err.errors.filter(isErrorLike).map((e) => serializeError(e as never, depth + 1));
  }
  return out;
}

/**
 * The logger's error serializer: type, message, stack frames, codes and other plain fields of an
 * error and its causes, never the parameters or text of a failed query, nor values Postgres
 * quotes in its messages. Redaction lives here, at the logger, so no call site can forget it.
 */
export function safeErrorSerializer(err: unknown): unknown {
  return isErrorLike(err) ? serializeError(err, 0) : err;
}

/**
 * A URL for the log: the path, and the names of the query parameters without their values (an
 * email being checked, a file ticket, a token or search text is request data, not a log field).
 */
export function safeUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const names = url
    .slice(q + 1)
    .split('&')
    .filter(Boolean)
    .map((pair) => {
      const eq = pair.indexOf('=');
      return eq < 0 ? pair : `${pair.slice(0, eq)}=${REDACTED}`;
    });
  return `${url.slice(0, q)}?${names.join('&')}`;
}

/** Fastify's request serializer, with `safeUrl`. */
function requestSerializer(req: {
  method?: string;
  url?: string;
  host?: string;
  ip?: string;
  socket?: { remotePort?: number };
}) {
  return {
    method: req.method,
    url: typeof req.url === 'string' ? safeUrl(req.url) : req.url,
    host: req.host,
    remoteAddress: req.ip,
    remotePort: req.socket?.remotePort,
  };
}

interface PinoInternals {
  [symbols.streamSym]?: DestinationStream;
  [symbols.chindingsSym]?: string;
}

/**
 * Writes the access line of an answered request: the same text as
 * `log.info({ req, res, responseTime }, 'request completed')` with the serializers above (Fastify's
 * `res` serializer keeps the status only), built as one template. The line is written for every
 * request, and pino's general path (serializer lookup per key, the redaction wrapper of `req`,
 * a stringifier per value) was over 3 % of the read API's CPU for a line whose shape never changes.
 * A logger that is not pino's (none configured) takes the general path.
 */
export function writeAccessLine(
  log: FastifyBaseLogger,
  req: Parameters<typeof requestSerializer>[0],
  statusCode: number,
  responseTime: number,
): void {
  const internals = log as unknown as PinoInternals;
  const stream = internals[symbols.streamSym];
  const bindings = internals[symbols.chindingsSym];
  if (!stream || typeof bindings !== 'string') {
    log.info({ req, res: { statusCode }, responseTime }, 'request completed');
    return;
  }
  if (!(log as Logger).isLevelEnabled('info')) return;
  stream.write(
    // eslint-disable-next-line no-restricted-syntax -- a log line carries the real time, as pino's own lines do
    `{"level":30,"time":${Date.now()}${bindings},"req":${JSON.stringify(requestSerializer(req))},` +
      `"res":{"statusCode":${statusCode}},"responseTime":${Number.isFinite(responseTime) ? responseTime : null},` +
      `"msg":"request completed"}\n`,
  );
}

/** How long a log line may wait in the buffer of `bufferedStdout`. */
const LOG_FLUSH_MS = 100;
/**
 * The least `bufferedStdout` writes at once, unless the flush timer comes first. Each write hands
 * a block to libuv's thread pool and wakes one of its threads; in blocks of 8 kB the writes were
 * 3 % of the read API's CPU in the mix of `bench:compare`, in blocks of 32 kB about 1 %. Blocks
 * stay under V8's large-object size: in the one profiled run with blocks of up to 256 kB,
 * collecting garbage took 3.6 times as long.
 */
const LOG_BLOCK_BYTES = 32 * 1024;

/**
 * Stdout for the log, written asynchronously in blocks of `LOG_BLOCK_BYTES` and at least every
 * 100 ms, and flushed when the process exits: a write per line (a system call each) was a large
 * share of the API's CPU at thousands of requests a second.
 *
 * Lines go in as bytes: given text, SonicBoom appends each line to one string per block and takes
 * that string's UTF-8 length on every write, so a line cost time in proportion to the block
 * waiting before it (2.9 µs a line in blocks of 32 kB, against 0.3 µs as bytes; 2 % of the read
 * API's CPU per cluster map).
 */
function bufferedStdout(): DestinationStream {
  const dest = destination({
    dest: 1,
    sync: false,
    minLength: LOG_BLOCK_BYTES,
    maxWrite: 2 * LOG_BLOCK_BYTES,
    contentMode: 'buffer',
  });
  const timer = setInterval(() => {
    try {
      dest.flush();
    } catch {
      clearInterval(timer); // destroyed: the process is ending
    }
  }, LOG_FLUSH_MS);
  timer.unref();
  // In buffer mode SonicBoom takes Buffers only (its type still says text). `dest.write` is looked
  // up per line: pino replaces it with a no-op when stdout's reader has gone (EPIPE).
  return { write: (line: string) => dest.write(Buffer.from(line) as unknown as string) };
}

/** Logger options of every server: level, header redaction, the safe error serializer. */
export function loggerOptions(level: string, stream?: DestinationStream): NonNullable<FastifyServerOptions['logger']> {
  return {
    level,
    redact: ['req.headers.authorization', 'req.headers.cookie', 'req.headers["x-api-key"]'],
    serializers: {
      req: requestSerializer as never,
      err: safeErrorSerializer as never,
      error: safeErrorSerializer as never,
    },
    stream: stream ?? bufferedStdout(),
  };
}
