import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { writeApi } from '@guest/write-api';
import type { MailboxMessage } from '@guest/mail';
import type { Clock } from '@guest/runtime';
import { startTestApp, type TestApp, type TestAppOptions } from '../../support/test-app.ts';
import { http } from '../../support/http.ts';
import { eventually } from '../../support/eventually.ts';

export const PASSWORD = 'correct horse battery staple';

/**
 * The write API on real Postgres and Redis. Limits that a file full of sign-ins from 127.0.0.1
 * would trip are raised unless the test is about them.
 */
export const relaxedLimits = {
  RATE_LIMIT_LOGIN_PER_MIN: 1000,
  CAPTCHA_AFTER_REGISTRATIONS_PER_ADDRESS: 1000,
  CAPTCHA_AFTER_FAILED_LOGINS_PER_ADDRESS: 1000,
  CAPTCHA_AFTER_RESET_REQUESTS_PER_ADDRESS: 1000,
};

export function startAuthApp(config: TestAppOptions['config'] = {}, clock?: Clock): Promise<TestApp> {
  return startTestApp({ apps: [writeApi], config: { ...relaxedLimits, ...config }, ...(clock ? { clock } : {}) });
}

export function uniqueEmail(tag = 'guest'): string {
  return `${tag}-${randomBytes(5).toString('hex')}@example.com`;
}

export interface Registered {
  email: string;
  password: string;
  accountId: string;
  tokens: {
    access_token: string;
    refresh_token: string;
    session_id: string;
    expires_in: number;
  };
}

export async function register(t: TestApp, over: Record<string, unknown> = {}): Promise<Registered> {
  const email = (over.email as string) ?? uniqueEmail();
  const password = (over.password as string) ?? PASSWORD;
  const res = await http(t.url, 'POST', '/v1/auth/register', {
    body: { first_name: 'Anna', last_name: 'Lee', email, password, accept_terms: true, ...over },
  });
  if (res.status !== 201) throw new Error(`register failed: ${res.status} ${res.text}`);
  const { rows } = await t.sql.query('select id from accounts where email = $1', [email.toLowerCase()]);
  return { email, password, accountId: rows[0].id, tokens: res.body };
}

export async function login(t: TestApp, email: string, password = PASSWORD, extra: Record<string, unknown> = {}) {
  return http(t.url, 'POST', '/v1/auth/login', { body: { email, password, ...extra } });
}

async function mailbox(t: TestApp): Promise<MailboxMessage[]> {
  let names: string[];
  try {
    names = (await readdir(t.config.MAILBOX_DIR)).filter((n) => n.endsWith('.json')).sort();
  } catch {
    return [];
  }
  return Promise.all(
    names.map(async (n) => JSON.parse(await readFile(path.join(t.config.MAILBOX_DIR, n), 'utf8')) as MailboxMessage),
  );
}

/** Waits for the mail worker to deliver a message to `to` whose subject matches; returns the newest. */
export async function waitForMail(t: TestApp, to: string, subject: RegExp, count = 1, timeoutMs = 15_000) {
  const found = await eventually(
    `${count} mail(s) "${subject}" to ${to}`,
    async () => (await mailbox(t)).filter((m) => m.to === to.toLowerCase() && subject.test(m.subject)),
    { timeoutMs, until: (mails) => mails.length >= count },
  );
  const mail = found.at(-1)!;
  const link = /https?:\/\/\S+/.exec(mail.text)?.[0];
  const token = link ? new URL(link).searchParams.get('token') : null;
  if (!token) throw new Error(`no link with a token in: ${mail.text}`);
  return { mail, token, all: found };
}

export async function mailsTo(t: TestApp, to: string): Promise<MailboxMessage[]> {
  return (await mailbox(t)).filter((m) => m.to === to.toLowerCase());
}

export async function confirmEmail(t: TestApp, email: string): Promise<void> {
  const { token } = await waitForMail(t, email, /confirm your email/i);
  const res = await http(t.url, 'POST', '/v1/auth/confirm-email', { body: { token } });
  if (res.status !== 200) throw new Error(`confirm failed: ${res.status} ${res.text}`);
}

/**
 * Gets a captcha over HTTP and answers it with the offset and the proof-of-work counter the
 * server stored in Redis: the test plays a person who solved the puzzle and a browser that did
 * the work (both are measured elsewhere: test/security/captcha-attack.test.ts solves them for
 * real). `email` is the email of the request it is for, `token` the signed-in caller's (a
 * deletion request), `address` the X-Forwarded-For of a test behind TRUST_PROXY: a challenge
 * answers only for them.
 */
export async function solvedCaptcha(
  t: TestApp,
  offsetPx = 0,
  opts: { email?: string; token?: string; address?: string } = {},
): Promise<{ captcha_id: string; captcha_answer: string; captcha_nonce: string }> {
  const res = await http(t.url, 'POST', '/v1/auth/captcha', {
    ...(opts.email ? { body: { email: opts.email } } : {}),
    ...(opts.token ? { token: opts.token } : {}),
    ...(opts.address ? { headers: { 'x-forwarded-for': opts.address } } : {}),
  });
  if (res.status !== 200) throw new Error(`captcha failed: ${res.status} ${res.text}`);
  const { x, counter } = JSON.parse((await t.runtime.redis.get(`captcha:${res.body.captcha_id}`))!) as {
    x: number;
    counter: number;
  };
  return {
    captcha_id: res.body.captcha_id,
    captcha_answer: String(x + offsetPx),
    captcha_nonce: String(counter),
  };
}
