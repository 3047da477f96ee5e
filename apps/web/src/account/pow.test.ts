import { createHash } from 'node:crypto';
import { expect, it } from 'vitest';
import { sha256, solvePow } from './pow.ts';

/** The server's check (libs/auth `powSatisfied`), restated on node:crypto. */
function powSatisfied(prefix: string, nonce: string, bits: number): boolean {
  const digest = createHash('sha256')
    .update(prefix + nonce)
    .digest();
  const head = BigInt('0x' + digest.subarray(0, 4).toString('hex'));
  return bits === 0 || head >> BigInt(32 - bits) === 0n;
}

const hex = (words: Uint32Array) => [...words].map((w) => w.toString(16).padStart(8, '0')).join('');

it('hashes as node:crypto does, across block boundaries', () => {
  for (const len of [0, 1, 3, 52, 55, 56, 63, 64, 65, 119, 120, 200]) {
    const bytes = new Uint8Array(len).map((_, i) => (i * 37 + len) & 0xff);
    expect(hex(sha256(bytes)), `length ${len}`).toBe(createHash('sha256').update(bytes).digest('hex'));
  }
});

it('finds the first nonce the server accepts', () => {
  const prefix = '0123456789abcdef0123456789abcdef';
  for (const bits of [0, 5, 13]) {
    const nonce = solvePow(prefix, bits);
    expect(powSatisfied(prefix, nonce, bits)).toBe(true);
    // The first one: no smaller nonce passes.
    for (let n = 0; n < Number(nonce); n += Math.max(1, Math.floor(Number(nonce) / 50))) {
      expect(powSatisfied(prefix, String(n), bits)).toBe(false);
    }
  }
});
