import { createHmac, createSecretKey, timingSafeEqual } from 'node:crypto';
import { AppError } from './errors/app-error.ts';

/**
 * Opaque, signed cursors. The payload names the list it belongs to (`scope`), so a cursor of
 * another list, or one a client edited, is refused with 400 `validation_error` on `cursor`.
 */
export interface CursorCodec {
  encode(scope: string, data: unknown): string;
  decode<T>(scope: string, cursor: string): T;
}

export function createCursorCodec(secret: string): CursorCodec {
  // The key imported once: a secret given as text is imported anew by every `createHmac`.
  const key = createSecretKey(Buffer.from(secret, 'utf8'));
  const sign = (payload: string) => createHmac('sha256', key).update(payload).digest('base64url');
  const invalid = (reason: string) =>
    new AppError('validation_error', 'The cursor is not valid for this list; start again without it.', {
      field: 'cursor',
      reason,
    });
  return {
    encode(scope, data) {
      const payload = Buffer.from(JSON.stringify({ s: scope, d: data })).toString('base64url');
      return `${payload}.${sign(payload)}`;
    },
    decode<T>(scope: string, cursor: string): T {
      const [payload, sig, extra] = cursor.split('.');
      if (!payload || !sig || extra !== undefined) throw invalid('malformed');
      const expected = Buffer.from(sign(payload));
      const given = Buffer.from(sig);
      if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw invalid('tampered');
      let parsed: { s?: unknown; d?: unknown };
      try {
        parsed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
      } catch {
        throw invalid('malformed');
      }
      if (parsed.s !== scope) throw invalid('foreign');
      return parsed.d as T;
    },
  };
}
