import { AppError } from '@guest/http-kit';
import { isAllowedToSignIn, parseAllowlist, PasswordVerifier } from '@guest/auth';
import type { WriteDeps } from '../deps.ts';
import { activeRestrictions } from './restrictions.ts';

/**
 * Who may sign in here, made once per app: the allowlist of the stand (SIGNIN_ALLOWLIST) and a
 * password verifier whose dummy hash makes unknown emails cost what known ones cost.
 */
export interface SignInPolicy {
  verifier: PasswordVerifier;
  /** Throws 403 `forbidden` when the email is not on the stand's allowlist. */
  assertAllowed(email: string | null): void;
  /** Throws 403 `account_restricted` when the account may not sign in now. */
  assertNotRestricted(accountId: string): Promise<void>;
}

export function createSignInPolicy({ config, database }: Pick<WriteDeps, 'config' | 'database'>): SignInPolicy {
  const allowlist = parseAllowlist(config.SIGNIN_ALLOWLIST);
  return {
    verifier: new PasswordVerifier(config),
    assertAllowed(email) {
      if (!email || !isAllowedToSignIn(allowlist, email)) {
        throw new AppError('forbidden', 'This email may not sign in here.', { reason: 'not_on_allowlist' });
      }
    },
    async assertNotRestricted(accountId) {
      const restricted = await activeRestrictions(database.db, accountId, ['login']);
      if (restricted.length) {
        throw new AppError('account_restricted', 'This account may not sign in.', { restrictions: restricted });
      }
    },
  };
}
