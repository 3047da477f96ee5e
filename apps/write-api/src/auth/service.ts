import type { WriteDeps } from '../deps.ts';
import { issueCaptcha, type Suspect } from './captcha-policy.ts';
import { createDeletion } from './deletion.ts';
import { createPasswords } from './passwords.ts';
import { createRegistration } from './registration.ts';
import { createSessionControl } from './session-control.ts';
import { createSignIn } from './sign-in.ts';
import { createSignInPolicy } from './sign-in-policy.ts';
import { restrictAccount, type NewRestriction } from './restrictions.ts';

/** Every `/v1/auth` flow, plus the session list of `/v1/me/sessions`, made once per app. */
export function createAuthService(deps: WriteDeps) {
  const policy = createSignInPolicy(deps);
  return {
    captcha: { issue: (who: Suspect) => issueCaptcha(deps, who) },
    registration: createRegistration(deps, policy),
    signIn: createSignIn(deps, policy),
    sessions: createSessionControl(deps),
    passwords: createPasswords(deps, policy),
    deletion: createDeletion(deps),
    /** For moderation tooling (no route here): restricts an account and acts on its open sessions. */
    restrict: (input: NewRestriction) => restrictAccount(deps, input),
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
