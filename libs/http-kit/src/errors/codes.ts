/**
 * Every error code the API answers with, and its HTTP status: section 7 of the spec plus the
 * decisions of DESIGN.md (G7a 422 `schema_invalid`, G7b 403 `captcha_required`) and the
 * protocol-level errors every HTTP API has (405, 408, 413, 415, 431, 502, 503, 504). A dependency
 * that does not answer (Postgres, Redis, the search engine) is 503 `unavailable` with `Retry-After`
 * (DESIGN.md section 6), as is a server that is shutting down.
 */
export const ERROR_CODES = {
  validation_error: 400,
  email_pref_unknown: 400,
  push_pref_unknown: 400,
  unauthorized: 401,
  forbidden: 403,
  email_not_confirmed: 403,
  account_restricted: 403,
  captcha_required: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  request_timeout: 408,
  payload_too_large: 413,
  unsupported_media_type: 415,
  schema_invalid: 422,
  header_too_large: 431,
  rate_limited: 429,
  internal_error: 500,
  bad_gateway: 502,
  unavailable: 503,
  gateway_timeout: 504,
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

export const DEFAULT_MESSAGES: Record<ErrorCode, string> = {
  validation_error: 'The request has invalid parameters.',
  email_pref_unknown: 'Unknown email preference code.',
  push_pref_unknown: 'Unknown push preference code.',
  unauthorized: 'Sign-in is required, or the token has expired or its session was closed.',
  forbidden: 'You have no rights for this operation.',
  email_not_confirmed: 'Confirm your email address first.',
  account_restricted: 'This account is restricted.',
  captcha_required: 'Solve the captcha and send the request again.',
  not_found: 'Not found.',
  method_not_allowed: 'This method is not allowed here.',
  conflict: 'The request conflicts with the current state.',
  request_timeout: 'The request did not arrive in time.',
  payload_too_large: 'The request body is too large.',
  unsupported_media_type: 'This content type is not supported here.',
  schema_invalid: 'The request body does not match its schema.',
  header_too_large: 'The request line or its headers are too large.',
  rate_limited: 'Too many requests. Wait and try again.',
  internal_error: 'Internal error. Quote the request id to support.',
  bad_gateway: 'An upstream service answered with an error.',
  unavailable: 'The service is temporarily unavailable; retry after the time in Retry-After.',
  gateway_timeout: 'An upstream service did not answer in time.',
};
