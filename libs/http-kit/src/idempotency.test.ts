import { describe, expect, it } from 'vitest';
import { parseKey, withRequestId } from './idempotency.ts';

describe('Idempotency-Key header (IETF draft)', () => {
  it('takes a bare key and the quoted-string form of the same key alike', () => {
    expect(parseKey('order-17-try-1')).toBe('order-17-try-1');
    expect(parseKey('"order-17-try-1"')).toBe('order-17-try-1');
    expect(parseKey('  "8e03978e-40d5-43e8-bc93-6894a57f9324"  ')).toBe('8e03978e-40d5-43e8-bc93-6894a57f9324');
  });

  it('unescapes a quoted key and allows what only a quoted string can hold', () => {
    expect(parseKey('"order 17/b, try 1"')).toBe('order 17/b, try 1');
    expect(parseKey('"say \\"hi\\" \\\\ 01"')).toBe('say "hi" \\ 01');
  });

  it('refuses short, long, unterminated or control-character keys', () => {
    for (const bad of [
      'short',
      '"short"',
      'a'.repeat(201),
      '"unterminated-key',
      '"tab\tinside-key"',
      'spaces in key',
      '"a"b"cdefgh"',
    ]) {
      expect(parseKey(bad), bad).toBeNull();
    }
    expect(parseKey(['a-key-0001', 'a-key-0002'])).toBeNull();
  });
});

describe('a replay names the request it answers', () => {
  it("puts the current request id in an error envelope's request_id", () => {
    const stored = JSON.stringify({ error: { code: 'conflict', message: 'x', details: {}, request_id: 'old-id' } });
    expect(JSON.parse(withRequestId(stored, 'new-id')).error.request_id).toBe('new-id');
  });

  it('leaves bodies without a request id, and non-JSON bodies, as they were', () => {
    const body = JSON.stringify({ access_token: 'a', session_id: 's' });
    expect(withRequestId(body, 'new-id')).toBe(body);
    expect(withRequestId('"request_id" but not JSON {', 'new-id')).toBe('"request_id" but not JSON {');
  });
});
