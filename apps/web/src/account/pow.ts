import type { DeriveKeyFunction } from 'altcha-lib';

/**
 * The captcha's proof of work (`POST /v1/auth/captcha`, `pow`, issue 32 point 2): ALTCHA's PoW v2
 * with PBKDF2-HMAC-SHA-256, solved by altcha-lib's solver in Web Workers (`captcha.tsx`,
 * `pow-worker.ts`) with the `deriveKey` below.
 *
 * PBKDF2 runs native through WebCrypto, as fast in the page as in a script. WebCrypto exists only
 * in a secure context, though (a page over plain HTTP on a LAN name has none): there PBKDF2 is
 * written out here on SHA-256, much slower, so that such a page still signs in.
 */
const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
  0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
  0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
  0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
  0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
  0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
  0xc67178f2,
]);
const W = new Uint32Array(64);

/** SHA-256 of `bytes`: the eight 32-bit words of the digest. */
export function sha256(bytes: Uint8Array): Uint32Array {
  const bitLen = bytes.length * 8;
  const blocks = Math.ceil((bytes.length + 9) / 64);
  const msg = new Uint8Array(blocks * 64);
  msg.set(bytes);
  msg[bytes.length] = 0x80;
  const view = new DataView(msg.buffer);
  view.setUint32(msg.length - 8, Math.floor(bitLen / 2 ** 32));
  view.setUint32(msg.length - 4, bitLen >>> 0);
  const h = new Uint32Array([
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
  ]);
  const rotr = (x: number, n: number) => (x >>> n) | (x << (32 - n));
  for (let off = 0; off < msg.length; off += 64) {
    for (let i = 0; i < 16; i++) W[i] = view.getUint32(off + i * 4);
    for (let i = 16; i < 64; i++) {
      const a = W[i - 15]!;
      const b = W[i - 2]!;
      const s0 = rotr(a, 7) ^ rotr(a, 18) ^ (a >>> 3);
      const s1 = rotr(b, 17) ^ rotr(b, 19) ^ (b >>> 10);
      W[i] = (W[i - 16]! + s0 + W[i - 7]! + s1) | 0;
    }
    let [a, b, c, d, e, f, g, hh] = h as unknown as [number, number, number, number, number, number, number, number];
    for (let i = 0; i < 64; i++) {
      const S1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25);
      const ch = (e & f) ^ (~e & g);
      const t1 = (hh + S1 + ch + K[i]! + W[i]!) | 0;
      const S0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22);
      const maj = (a & b) ^ (a & c) ^ (b & c);
      const t2 = (S0 + maj) | 0;
      hh = g;
      g = f;
      f = e;
      e = (d + t1) | 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) | 0;
    }
    h[0]! += a;
    h[1]! += b;
    h[2]! += c;
    h[3]! += d;
    h[4]! += e;
    h[5]! += f;
    h[6]! += g;
    h[7]! += hh;
  }
  return h;
}

const BLOCK = 64;

/** HMAC-SHA-256 (RFC 2104) on the SHA-256 above: the 32-byte tag. */
export function hmacSha256(key: Uint8Array, message: Uint8Array): Uint8Array {
  const k = key.length > BLOCK ? bytesOf(sha256(key)) : key;
  const inner = new Uint8Array(BLOCK + message.length);
  const outer = new Uint8Array(BLOCK + 32);
  for (let i = 0; i < BLOCK; i++) {
    const b = k[i] ?? 0;
    inner[i] = b ^ 0x36;
    outer[i] = b ^ 0x5c;
  }
  inner.set(message, BLOCK);
  outer.set(bytesOf(sha256(inner)), BLOCK);
  return bytesOf(sha256(outer));
}

/** PBKDF2-HMAC-SHA-256 (RFC 8018) of `length` bytes. */
export function pbkdf2Sha256(password: Uint8Array, salt: Uint8Array, iterations: number, length: number): Uint8Array {
  const out = new Uint8Array(length);
  const block = new Uint8Array(salt.length + 4);
  block.set(salt);
  for (let index = 1, at = 0; at < length; index++, at += 32) {
    new DataView(block.buffer).setUint32(salt.length, index);
    let u = hmacSha256(password, block);
    const t = u.slice();
    for (let i = 1; i < iterations; i++) {
      u = hmacSha256(password, u);
      for (let j = 0; j < 32; j++) t[j]! ^= u[j]!;
    }
    out.set(t.subarray(0, Math.min(32, length - at)), at);
  }
  return out;
}

function bytesOf(words: Uint32Array): Uint8Array {
  const out = new Uint8Array(words.length * 4);
  const view = new DataView(out.buffer);
  words.forEach((w, i) => view.setUint32(i * 4, w));
  return out;
}

/** altcha-lib's key derivation for `PBKDF2/SHA-256`: WebCrypto when the page has it, else the code above. */
export const deriveKey: DeriveKeyFunction = async (parameters, salt, password) => {
  const length = parameters.keyLength ?? 32;
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) return { derivedKey: pbkdf2Sha256(password, salt, parameters.cost, length) };
  const key = await subtle.importKey('raw', password as BufferSource, { name: 'PBKDF2' }, false, ['deriveBits']);
  const bits = await subtle.deriveBits(
    { name: 'PBKDF2', salt: salt as BufferSource, iterations: parameters.cost, hash: 'SHA-256' },
    key,
    length * 8,
  );
  return { derivedKey: new Uint8Array(bits) };
};
