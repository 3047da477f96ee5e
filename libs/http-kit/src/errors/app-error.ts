import { DEFAULT_MESSAGES, ERROR_CODES, type ErrorCode } from './codes.ts';

export type ErrorDetails = Record<string, unknown>;

/** The one error type handlers throw; the error handler turns it into the envelope. */
export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message?: string,
    readonly details: ErrorDetails = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message ?? DEFAULT_MESSAGES[code]);
    this.name = 'AppError';
    this.status = ERROR_CODES[code];
  }
}

export const errors = {
  validation: (field: string, message: string, extra: ErrorDetails = {}) =>
    new AppError('validation_error', message, { field, ...extra }),
  notFound: (message?: string) => new AppError('not_found', message),
  unauthorized: (message?: string) => new AppError('unauthorized', message),
  forbidden: (message?: string) => new AppError('forbidden', message),
  conflict: (reason: string, message?: string, extra: ErrorDetails = {}) =>
    new AppError('conflict', message, { reason, ...extra }),
  rateLimited: (retryAfterS: number, scope: string) =>
    new AppError(
      'rate_limited',
      undefined,
      { retry_after: retryAfterS, scope },
      { 'retry-after': String(retryAfterS) },
    ),
};
