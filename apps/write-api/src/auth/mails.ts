import type { Config } from '@guest/config';

type LinkConfig = Pick<Config, 'APP_LINK_BASE_URL' | 'PUBLIC_BASE_URL' | 'HOST' | 'PORT'>;

/**
 * The web client's address for the links in mails: APP_LINK_BASE_URL, else PUBLIC_BASE_URL (the
 * one base URL serves the page too), else the address this server listens on.
 */
export function linkBase(config: LinkConfig): string {
  const host =
    config.HOST === '0.0.0.0' || config.HOST === ''
      ? '127.0.0.1'
      : config.HOST === '::'
        ? '[::1]'
        : config.HOST.includes(':')
          ? `[${config.HOST}]`
          : config.HOST;
  const base = config.APP_LINK_BASE_URL ?? config.PUBLIC_BASE_URL ?? `http://${host}:${config.PORT}`;
  return base.endsWith('/') ? base : `${base}/`;
}

/** The web client's pages that act on a mailed token (apps/web `src/account/email-links.tsx`). */
export const MAIL_PAGES = {
  confirmEmail: 'account/confirm-email',
  resetPassword: 'account/reset-password',
  deleteAccount: 'account/delete-confirm',
} as const;

function link(config: LinkConfig, page: string, token: string): string {
  const url = new URL(page, linkBase(config));
  url.searchParams.set('token', token);
  return url.toString();
}

export interface MailText {
  subject: string;
  text: string;
}

export function confirmEmailMail(
  config: LinkConfig & Pick<Config, 'EMAIL_CONFIRM_TTL_H'>,
  firstName: string,
  token: string,
): MailText {
  return {
    subject: 'Confirm your email address',
    text: [
      `Hello ${firstName},`,
      '',
      'Please confirm your email address by opening this link:',
      link(config, MAIL_PAGES.confirmEmail, token),
      '',
      `The link works once and expires in ${config.EMAIL_CONFIRM_TTL_H} hours.`,
      'If you did not create an account, ignore this message.',
    ].join('\n'),
  };
}

export function passwordResetMail(
  config: LinkConfig & Pick<Config, 'PASSWORD_RESET_TTL_MIN'>,
  firstName: string,
  token: string,
): MailText {
  return {
    subject: 'Reset your password',
    text: [
      `Hello ${firstName},`,
      '',
      'To choose a new password, open this link:',
      link(config, MAIL_PAGES.resetPassword, token),
      '',
      `The link works once and expires in ${config.PASSWORD_RESET_TTL_MIN} minutes. Setting a new password signs you out everywhere.`,
      'If you did not ask for this, ignore this message: your password stays as it is.',
    ].join('\n'),
  };
}

export function deleteAccountMail(
  config: LinkConfig & Pick<Config, 'ACCOUNT_DELETE_TTL_MIN'>,
  firstName: string,
  token: string,
): MailText {
  return {
    subject: 'Confirm the deletion of your account',
    text: [
      `Hello ${firstName},`,
      '',
      'You asked to delete your account. To confirm, open this link:',
      link(config, MAIL_PAGES.deleteAccount, token),
      '',
      'Deletion signs you out everywhere and erases your personal data; it cannot be undone.',
      `The link works once and expires in ${config.ACCOUNT_DELETE_TTL_MIN} minutes. If you did not ask for this, ignore this message and consider changing your password.`,
    ].join('\n'),
  };
}

export function loginLockoutMail(
  config: LinkConfig & Pick<Config, 'LOGIN_BACKOFF_MAX_S'>,
  firstName: string,
  failures: number,
): MailText {
  // Without a token the page asks for the email and requests a reset link.
  const url = new URL(MAIL_PAGES.resetPassword, linkBase(config));
  return {
    subject: 'Someone is trying to sign in to your account',
    text: [
      `Hello ${firstName},`,
      '',
      `There have been ${failures} failed attempts to sign in to your account with a wrong password.`,
      `To protect it, sign-in now waits between attempts (up to ${Math.round(config.LOGIN_BACKOFF_MAX_S / 60)} minutes) and asks for a captcha.`,
      'You can still sign in with your password once the wait is over.',
      '',
      'If this was not you, nothing has been changed, but consider choosing a new password:',
      url.toString(),
      'Resetting your password also lifts the wait at once.',
    ].join('\n'),
  };
}
