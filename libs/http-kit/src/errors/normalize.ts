import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { AppError } from './app-error.ts';

type Issue = { field: string; message: string };

function fieldOf(instancePath: string | undefined, context: string): string {
  const p = (instancePath ?? '').replace(/^\//, '').split('/').filter(Boolean).join('.');
  return p || context;
}

export type Dependency = 'database' | 'cache' | 'search' | 'network';

/** System errors of a connection that could not be made or was lost. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
  'ECONNABORTED',
]);
/** Postgres SQLSTATEs of a server that cannot take the query now (class 08, shutdown, overload). */
const PG_UNAVAILABLE = /^(08...|57P0[1-3]|53300|53400)$/;
/** node-postgres and its pool, when the server is unreachable or the pool has no connection in time. */
const PG_MESSAGES =
  /^(timeout exceeded when trying to connect|Connection terminated unexpectedly|Connection terminated due to connection timeout|Client has encountered a connection error and is not queryable)/;
/** ioredis, with no offline queue: Redis is down, the connection dropped, or a command timed out. */
const REDIS_MESSAGES =
  /^(Stream isn't writeable and enableOfflineQueue options is false|Connection is closed\.|Command timed out|Reached the max retries per request limit)/;
/** The search engine client: no connection, a timeout, or the engine's own 5xx/429. */
const SEARCH_NAMES = new Set(['ConnectionError', 'TimeoutError', 'NoLivingConnectionsError']);

function dependencyOfOne(err: Record<string, unknown>): Dependency | null {
  const code = typeof err.code === 'string' ? err.code : '';
  const message = typeof err.message === 'string' ? err.message : '';
  const name = typeof err.name === 'string' ? err.name : '';
  if (name === 'MaxRetriesPerRequestError' || REDIS_MESSAGES.test(message)) return 'cache';
  if (SEARCH_NAMES.has(name)) return 'search';
  if (name === 'ResponseError') {
    const meta = err.meta as { statusCode?: number; body?: { error?: { type?: string } } } | undefined;
    const status = meta?.statusCode ?? 0;
    if (status >= 500 || status === 429) return 'search';
    // The index is not there yet (a read API started before the indexer's first build, or while
    // an operator rebuilds it by hand): search cannot answer now, but will.
    if (status === 404 && meta?.body?.error?.type === 'index_not_found_exception') return 'search';
  }
  if (typeof err.severity === 'string' && PG_UNAVAILABLE.test(code)) return 'database';
  if (PG_MESSAGES.test(message)) return 'database';
  if (NETWORK_CODES.has(code)) return 'network';
  return null;
}

/**
 * Which dependency an error says is not answering (Postgres, Redis, the search engine, or a
 * connection to any of them), looking through wrappers (drizzle's query error, AggregateError of
 * a connection tried on several addresses); null for any other error.
 */
export function unavailableDependency(err: unknown): Dependency | null {
  const queue: unknown[] = [err];
  for (let i = 0; i < queue.length && i < 20; i++) {
    const e = queue[i];
    if (!e || typeof e !== 'object') continue;
    const found = dependencyOfOne(e as Record<string, unknown>);
    if (found) return found;
    const { cause, errors } = e as { cause?: unknown; errors?: unknown };
    if (cause) queue.push(cause);
    if (Array.isArray(errors)) queue.push(...errors);
  }
  return null;
}

/** Errors of the multipart parser (busboy) on a body that is not well-formed multipart. */
const MULTIPART_MESSAGES =
  /^(Multipart: Boundary not found|Boundary required|Unexpected end of multipart data|Malformed part header|.* terminated early due to unexpected end of multipart data)/;

export interface NormalizeOptions {
  /** `Retry-After` of 503 `unavailable` (config `UNAVAILABLE_RETRY_AFTER_S`). */
  retryAfterS?: number;
}

/**
 * Maps anything thrown inside a request to an AppError. Known framework errors become their
 * client-facing codes; a dependency that does not answer becomes 503 `unavailable` with
 * `Retry-After` (DESIGN.md section 6); everything unknown becomes `internal_error`, with no
 * internals leaked.
 */
export function normalizeError(err: unknown, opts: NormalizeOptions = {}): AppError {
  if (err instanceof AppError) return err;

  if (hasZodFastifySchemaValidationErrors(err)) {
    const context = (err as { validationContext?: string }).validationContext ?? 'body';
    // An unknown key (a strict object: `PATCH /v1/me {"email": …}`) is named as a field of its own.
    const issues: Issue[] = err.validation.flatMap((v) => {
      const keys = (v.params as { keys?: unknown } | undefined)?.keys;
      if (v.keyword === 'unrecognized_keys' && Array.isArray(keys)) {
        const at = fieldOf(v.instancePath, '');
        return keys.map((k) => ({
          field: at ? `${at}.${String(k)}` : String(k),
          message: 'unknown or read-only field: it cannot be set here',
        }));
      }
      return [{ field: fieldOf(v.instancePath, context), message: v.message ?? 'invalid' }];
    });
    const fields = [...new Set(issues.map((i) => i.field))];
    // DESIGN.md G7a: a JSON body that fails its schema is 422; query, path and headers are 400.
    if (context === 'body') {
      return new AppError('schema_invalid', `The request body does not match its schema: ${describe(issues)}`, {
        fields,
        issues,
      });
    }
    return new AppError('validation_error', `Invalid ${context} parameter: ${describe(issues)}`, {
      field: fields[0],
      fields,
      issues,
    });
  }

  if (isResponseSerializationError(err)) return new AppError('internal_error');

  const e = err as { code?: string; statusCode?: number };
  switch (e.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new AppError('validation_error', 'The request body is not valid JSON.', {
        field: 'body',
        reason: 'malformed_json',
      });
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppError('payload_too_large');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new AppError('unsupported_media_type');
    case 'FST_ERR_BAD_URL':
      return new AppError('validation_error', 'The path is not valid percent-encoded UTF-8.', {
        field: 'path',
        reason: 'bad_encoding',
      });
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return new AppError('validation_error', 'A path segment is too long.', { field: 'path', reason: 'too_long' });
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return new AppError('unsupported_media_type', 'The request body is not multipart/form-data.');
    case 'FST_PROTO_VIOLATION':
    case 'FST_INVALID_JSON_FIELD_ERROR':
    case 'FST_MP_PREMATURE_CLOSE':
      return malformedMultipart();
    default:
      // No Fastify code we know: the checks below read the error's class and status.
      break;
  }
  if (err instanceof Error && MULTIPART_MESSAGES.test(err.message)) return malformedMultipart();
  const dependency = unavailableDependency(err);
  if (dependency) {
    const retryAfterS = opts.retryAfterS ?? 5;
    return new AppError(
      'unavailable',
      'A service this request needs is not answering; retry shortly.',
      { retry_after: retryAfterS },
      { 'retry-after': String(retryAfterS) },
    );
  }
  if (err instanceof SyntaxError && e.statusCode === 400) {
    return new AppError('validation_error', 'The request body is not valid JSON.', {
      field: 'body',
      reason: 'malformed_json',
    });
  }
  if (e.statusCode === 413) return new AppError('payload_too_large');
  if (e.statusCode === 415) return new AppError('unsupported_media_type');
  if (e.statusCode === 400) return new AppError('validation_error', undefined, { field: 'request' });
  return new AppError('internal_error');
}

function malformedMultipart(): AppError {
  return new AppError('validation_error', 'The multipart body could not be read.', {
    field: 'body',
    reason: 'malformed_multipart',
  });
}

function describe(issues: Issue[]): string {
  return issues
    .slice(0, 5)
    .map((i) => `${i.field}: ${i.message}`)
    .join('; ');
}
