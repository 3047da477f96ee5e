export {
  GUEST_AUDIENCE,
  signAccessToken,
  verifyAccessToken,
  randomToken,
  hashToken,
  InvalidTokenError,
  type AccessClaims,
} from './tokens.ts';
export {
  authenticate,
  sessionState,
  AuthError,
  RESTRICTION_KINDS,
  type AuthContext,
  type AuthFailure,
  type RestrictionKind,
  type AccountStatus,
  type AlongsideQuery,
  type SessionState,
} from './authenticate.ts';
export { requireAuth, optionalAuth, authOf, bearerSecurity, type GuardOptions } from './guard.ts';
export {
  hashPassword,
  passwordProblem,
  PasswordVerifier,
  PASSWORD_MIN,
  PASSWORD_MAX,
  PASSWORD_PROBLEM_MESSAGES,
  type PasswordProblem,
} from './password.ts';
export {
  createCaptcha,
  verifyCaptcha,
  parseOffset,
  type ProofOfWork,
  type CaptchaPow,
  type CaptchaBinding,
  type CaptchaVerdict,
  CAPTCHA_WIDTH,
  CAPTCHA_HEIGHT,
  PIECE_SIZE,
  type CaptchaChallenge,
} from './captcha.ts';
export { issueWsTicket, redeemWsTicket, type WsTicketIdentity } from './ws-ticket.ts';
export { parseAllowlist, isAllowedToSignIn } from './allowlist.ts';
