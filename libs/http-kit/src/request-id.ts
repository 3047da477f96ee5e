import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export const WELL_FORMED_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Keeps a caller's well-formed `X-Request-Id` (so traces join up); otherwise makes a new one. */
export function genRequestId(req: IncomingMessage): string {
  const incoming = req.headers['x-request-id'];
  if (typeof incoming === 'string' && WELL_FORMED_REQUEST_ID.test(incoming)) return incoming;
  return randomUUID();
}
