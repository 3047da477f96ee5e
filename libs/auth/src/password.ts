import argon2 from 'argon2';
import lang from '@zxcvbn-ts/language-common';
import type { Config } from '@guest/config';

type HashConfig = Pick<Config, 'ARGON2_MEMORY_KIB' | 'ARGON2_ITERATIONS' | 'ARGON2_PARALLELISM'>;

export const PASSWORD_MIN = 10;
export const PASSWORD_MAX = 128;

// About 49,000 passwords most often found in leaks (the zxcvbn-ts common list).
const COMMON = new Set<string>((lang.dictionary['passwords-common'] as string[]).map((p) => p.toLowerCase()));

export type PasswordProblem = 'too_short' | 'too_long' | 'blank' | 'common' | 'equals_email';

export const PASSWORD_PROBLEM_MESSAGES: Record<PasswordProblem, string> = {
  too_short: `The password must have at least ${PASSWORD_MIN} characters.`,
  too_long: `The password must have at most ${PASSWORD_MAX} characters.`,
  blank: 'The password must not be only spaces or other white space.',
  common: 'This password is too common; choose another one.',
  equals_email: 'The password must not be your email address.',
};

/**
 * DESIGN G5a (NIST 800-63B): length only, no composition rules; not only white space (ten spaces
 * have the length and no secret), not common, not the email.
 */
export function passwordProblem(password: string, email: string | null): PasswordProblem | null {
  const length = [...password].length;
  if (length < PASSWORD_MIN) return 'too_short';
  if (length > PASSWORD_MAX) return 'too_long';
  if (/^[\s\p{White_Space}\p{Cf}]*$/u.test(password)) return 'blank';
  const lower = password.trim().toLowerCase();
  if (COMMON.has(lower)) return 'common';
  if (email) {
    const e = email.toLowerCase();
    if (lower === e || lower === e.split('@')[0]) return 'equals_email';
  }
  return null;
}

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
