import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeApi } from '@guest/write-api';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { http } from '../support/http.ts';
import { PASSWORD, relaxedLimits, releaseTogether, signUp, uniqueEmail } from './support.ts';

// Issue 32 point 7: only the dictionary check ran, so repeats, sequences, keyboard patterns,
// dates and common words with substitutions were accepted. The passwords again, sent to
// the running server by every way a password is set (registration, password change, reset),
// released together as a script would send them. Each refusal is DESIGN G5a's 400
// validation_error on `password` (`new_password` for a change) with its reason. Prints its
// figures as "issue 32 point 7, ...".

const WEAK: Array<[string, string]> = [
  ['aaaaaaaaaa', 'common'],
  ['0000000000', 'common'],
  ['abcdefghij', 'common'],
  ['P@ssw0rd123', 'common_word'],
  ['Password1!', 'common'],
  ['Welcome2024', 'common_word'],
  ['Summer2026!', 'common_word'],
  // Not in the breached list: found by zxcvbn's patterns.
  ['kkkkkkkkkkkk', 'repeated'],
  ['ghijklmnopq', 'sequence'],
  ['xcvbnm,.lkjh', 'keyboard_pattern'],
  ['2024-12-25!!', 'date'],
];

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ apps: [writeApi], config: { ...relaxedLimits, RATE_LIMIT_PASSWORD_CHANGE_PER_HOUR: 100 } });
});
afterAll(async () => t?.close());

describe('weak passwords are refused, each saying why (issue 32 point 7)', () => {
  it('registration: every weak password is 400 on password with its reason; a passphrase passes', async () => {
    const answers = await releaseTogether(
      t.url,
      WEAK.map(([password]) => ({
        method: 'POST',
        path: '/v1/auth/register',
        body: { first_name: 'Anna', last_name: 'Lee', email: uniqueEmail('weak'), password, accept_terms: true },
      })),
    );
    const refused = answers.filter((a) => a.status === 400).length;
    console.info(`issue 32 point 7, weak passwords refused at registration: ${refused} of ${WEAK.length}`);
    answers.forEach((a, i) => {
      const [password, reason] = WEAK[i]!;
      expect([password, a.status, a.body?.error?.code]).toEqual([password, 400, 'validation_error']);
      expect([password, a.body.error.details]).toEqual([password, { field: 'password', reason }]);
      expect(a.body.error.message.length).toBeGreaterThan(20);
    });
    // The person's own name and email, dressed up, are refused too.
    const own = await http(t.url, 'POST', '/v1/auth/register', {
      body: {
        first_name: 'Anna',
        last_name: 'Lee',
        email: 'anna.lee@example.com',
        password: 'AnnaLee2026!',
        accept_terms: true,
      },
    });
    expect(own.status).toBe(400);
    expect(own.body.error.details).toEqual({ field: 'password', reason: 'personal_info' });
    const fine = await http(t.url, 'POST', '/v1/auth/register', {
      body: {
        first_name: 'Anna',
        last_name: 'Lee',
        email: uniqueEmail('fine'),
        password: 'plum harbor lantern 57',
        accept_terms: true,
      },
    });
    expect(fine.status).toBe(201);
  });

  it('password change: the same rules on new_password', async () => {
    const guest = await signUp(t);
    const answers = await releaseTogether(
      t.url,
      WEAK.map(([password]) => ({
        method: 'POST',
        path: '/v1/auth/password/change',
        headers: { authorization: `Bearer ${guest.token}` },
        body: { current_password: PASSWORD, new_password: password },
      })),
    );
    answers.forEach((a, i) => {
      const [password, reason] = WEAK[i]!;
      expect([password, a.status, a.body?.error?.details]).toEqual([password, 400, { field: 'new_password', reason }]);
    });
  });
});
