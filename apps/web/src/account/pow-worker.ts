import { handler } from 'altcha-lib/workers/shared';
import { deriveKey } from './pow.ts';

/**
 * One of the Web Workers that solve the captcha's proof of work off the page's thread:
 * altcha-lib's worker protocol (`solveChallengeWorkers` gives each worker its own counters).
 */
handler({ deriveKey });
