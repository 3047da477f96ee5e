import type { FastifyInstance } from 'fastify';
import type { Jobs } from '@guest/jobs';
import { PasswordVerifier, parseAllowlist } from '@guest/auth';

/** Services the account routes share, made once per app. */
export interface AccountsContext {
  jobs: Jobs;
  verifier: PasswordVerifier;
  allowlist: string[];
}

export function createAccountsContext(app: FastifyInstance, jobs: Jobs): AccountsContext {
  const { config } = app.runtime;
  return { jobs, verifier: new PasswordVerifier(config), allowlist: parseAllowlist(config.SIGNIN_ALLOWLIST) };
}

export interface RouteOptions {
  ctx: AccountsContext;
}
