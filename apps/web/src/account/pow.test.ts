import { pbkdf2Sync } from 'node:crypto';
import { expect, it } from 'vitest';
import { createChallenge, solveChallenge } from 'altcha-lib';
import { deriveKey as nodeDeriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { deriveKey, hmacSha256, pbkdf2Sha256, sha256 } from './pow.ts';
import { createHash, createHmac } from 'node:crypto';

const hex = (words: Uint32Array) => [...words].map((w) => w.toString(16).padStart(8, '0')).join('');
const bytes = (len: number, seed: number) => new Uint8Array(len).map((_, i) => (i * 37 + seed) & 0xff);

it('hashes as node:crypto does, across block boundaries', () => {
  for (const len of [0, 1, 3, 52, 55, 56, 63, 64, 65, 119, 120, 200]) {
    const b = bytes(len, len);
    expect(hex(sha256(b)), `length ${len}`).toBe(createHash('sha256').update(b).digest('hex'));
  }
});

it('computes HMAC-SHA-256 and PBKDF2 as node:crypto does (the fallback without WebCrypto)', () => {
  for (const keyLen of [0, 16, 64, 100]) {
    const key = bytes(keyLen, 7);
    const msg = bytes(77, 3);
    expect(Buffer.from(hmacSha256(key, msg)).toString('hex')).toBe(createHmac('sha256', key).update(msg).digest('hex'));
  }
  const password = bytes(20, 1);
  const salt = bytes(16, 2);
  for (const [iterations, length] of [
    [1, 32],
    [50, 32],
    [3, 40],
  ] as const) {
    expect(Buffer.from(pbkdf2Sha256(password, salt, iterations, length)).toString('hex')).toBe(
      pbkdf2Sync(password, salt, iterations, length, 'sha256').toString('hex'),
    );
  }
});

it("solves the server's challenge (altcha-lib, node's PBKDF2) with the page's deriveKey, WebCrypto or not", async () => {
  const counter = 37;
  const { parameters } = await createChallenge({
    algorithm: 'PBKDF2/SHA-256',
    cost: 50,
    counter,
    deriveKey: nodeDeriveKey,
    keyLength: 32,
    keyPrefixLength: 16,
  });
  const withWebCrypto = await solveChallenge({ challenge: { parameters }, deriveKey });
  expect(withWebCrypto?.counter).toBe(counter);
  // Without WebCrypto (a page over plain HTTP on a LAN name): the code of pow.ts.
  const subtle = Object.getOwnPropertyDescriptor(globalThis, 'crypto');
  Object.defineProperty(globalThis, 'crypto', {
    value: { getRandomValues: crypto.getRandomValues.bind(crypto) },
    configurable: true,
  });
  try {
    const withoutWebCrypto = await solveChallenge({ challenge: { parameters }, deriveKey });
    expect(withoutWebCrypto?.counter).toBe(counter);
  } finally {
    Object.defineProperty(globalThis, 'crypto', subtle!);
  }
});
