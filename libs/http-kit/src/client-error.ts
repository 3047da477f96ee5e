import { randomUUID } from 'node:crypto';
import { STATUS_CODES, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import { AppError } from './errors/app-error.ts';
import { envelope } from './errors/envelope.ts';
import { WELL_FORMED_REQUEST_ID } from './request-id.ts';

/**
 * Errors of Node's HTTP parser, found before Fastify has a request (so before every hook): the
 * request line or headers over the limit (431), an unknown method, `Content-Length` together
 * with `Transfer-Encoding` (a request-smuggling shape), a malformed request, a request that did
 * not arrive in time (408). Node would answer them in plain text without a request id.
 */
function appErrorOf(err: NodeJS.ErrnoException): AppError {
  switch (err.code) {
    case 'HPE_HEADER_OVERFLOW':
      return new AppError('header_too_large', undefined, { field: 'headers', reason: 'too_large' });
    case 'ERR_HTTP_REQUEST_TIMEOUT':
    case 'ERR_HTTP_HEADERS_TIMEOUT':
      return new AppError('request_timeout');
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return new AppError('payload_too_large');
    case 'HPE_INVALID_METHOD':
      return new AppError('validation_error', 'The request method is not a known HTTP method.', {
        field: 'method',
        reason: 'unknown_method',
      });
    case 'HPE_INVALID_TRANSFER_ENCODING':
      if (!/content-length/i.test(err.message)) {
        return new AppError('validation_error', 'The Transfer-Encoding header is not valid.', {
          field: 'headers',
          reason: 'bad_transfer_encoding',
        });
      }
    // falls through: Transfer-Encoding with Content-Length
    case 'HPE_UNEXPECTED_CONTENT_LENGTH':
      return new AppError('validation_error', 'A request must not carry both Content-Length and Transfer-Encoding.', {
        field: 'headers',
        reason: 'conflicting_length',
      });
    default:
      return new AppError('validation_error', 'The request is not well-formed HTTP.', {
        field: 'request',
        reason: 'malformed_request',
      });
  }
}

/** The caller's well-formed `X-Request-Id`, when the part of the request Node has read holds one. */
function requestIdOf(err: { rawPacket?: unknown }): string {
  const raw = Buffer.isBuffer(err.rawPacket) ? err.rawPacket.subarray(0, 65_536).toString('latin1') : '';
  const m = /\r\nx-request-id:[ \t]*([^\r\n]*?)[ \t]*\r\n/i.exec(raw);
  return m && WELL_FORMED_REQUEST_ID.test(m[1]!) ? m[1]! : randomUUID();
}

/**
 * Fastify's `clientErrorHandler`: writes the envelope, `X-Request-Id` and the headers every answer
 * carries (`always`: nosniff, HSTS) as a raw HTTP response,
 * where Node lets the server answer (a socket still writable, no response of an earlier request
 * on it half-sent), then closes the connection; the parser's state cannot be trusted after it.
 */
export function clientErrorHandler(log: () => FastifyBaseLogger, always: Record<string, string> = {}) {
  return (err: NodeJS.ErrnoException & { rawPacket?: unknown }, socket: Socket) => {
    if (err.code === 'ECONNRESET' || socket.destroyed) return;
    const pending = (socket as Socket & { _httpMessage?: ServerResponse })._httpMessage;
    if (!socket.writable || (pending && pending.headersSent)) {
      socket.destroy(err);
      return;
    }
    const appError = appErrorOf(err);
    const requestId = requestIdOf(err);
    log().info({ code: appError.code, parser: err.code, request_id: requestId }, 'request refused by the HTTP parser');
    const body = JSON.stringify(envelope(appError, requestId));
    const head = [
      `HTTP/1.1 ${appError.status} ${STATUS_CODES[appError.status] ?? 'Error'}`,
      'Content-Type: application/json; charset=utf-8',
      `Content-Length: ${Buffer.byteLength(body)}`,
      `X-Request-Id: ${requestId}`,
      'Cache-Control: no-store',
      ...Object.entries(always).map(([k, v]) => `${k}: ${v}`),
      'Connection: close',
    ];
    socket.end(`${head.join('\r\n')}\r\n\r\n${body}`);
  };
}
