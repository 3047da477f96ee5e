import argon2 from 'argon2';
import type { Config } from '@guest/config';

export {
  PASSWORD_MAX,
  PASSWORD_MIN,
  PASSWORD_MIN_SCORE,
  PASSWORD_PROBLEM_MESSAGES,
  passwordProblem,
  type PasswordProblem,
} from './password-rules.ts';

type HashConfig = Pick<Config, 'ARGON2_MEMORY_KIB' | 'ARGON2_ITERATIONS' | 'ARGON2_PARALLELISM'>;

export function hashPassword(config: HashConfig, password: string): Promise<string> {
  return argon2.hash(password, {
    type: argon2.argon2id,
    memoryCost: config.ARGON2_MEMORY_KIB,
    timeCost: config.ARGON2_ITERATIONS,
    parallelism: config.ARGON2_PARALLELISM,
  });
}

/**
 * Verifies against the stored hash; with no hash (unknown email, erased account) verifies
 * against a hash of the same cost, so both answers take the same time.
 */
export class PasswordVerifier {
  private dummy: Promise<string>;
  constructor(private readonly config: HashConfig) {
    this.dummy = hashPassword(config, 'no-such-account-placeholder-password');
  }

  async verify(hash: string | null | undefined, password: string): Promise<boolean> {
    if (!hash) {
      await argon2.verify(await this.dummy, password).catch(() => false);
      return false;
    }
    try {
      return await argon2.verify(hash, password);
    } catch {
      return false;
    }
  }

  /** True when the hash was made with weaker parameters than configured now. */
  needsRehash(hash: string): boolean {
    return argon2.needsRehash(hash, {
      memoryCost: this.config.ARGON2_MEMORY_KIB,
      timeCost: this.config.ARGON2_ITERATIONS,
      parallelism: this.config.ARGON2_PARALLELISM,
    });
  }
}
