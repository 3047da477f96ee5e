import { solvePow } from './pow.ts';

/** Solves one proof of work off the page's thread: `{ prefix, bits }` in, `{ nonce }` out. */
self.onmessage = (e: MessageEvent<{ prefix: string; bits: number }>) => {
  self.postMessage({ nonce: solvePow(e.data.prefix, e.data.bits) });
};
