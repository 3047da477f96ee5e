import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { AppError } from './app-error.ts';

type Issue = { field: string; message: string };

function fieldOf(instancePath: string | undefined, context: string): string {
  const p = (instancePath ?? '').replace(/^\//, '').split('/').filter(Boolean).join('.');
  return p || context;
}

/**
 * Maps anything thrown inside a request to an AppError. Known framework errors become their
 * client-facing codes; everything unknown becomes `internal_error`, with no internals leaked.
 */
export function normalizeError(err: unknown): AppError {
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

function describe(issues: Issue[]): string {
  return issues
    .slice(0, 5)
    .map((i) => `${i.field}: ${i.message}`)
    .join('; ');
}
