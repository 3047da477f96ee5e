import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../support/test-app.ts';
import { expectEnvelope, http } from '../../support/http.ts';
import { listenToAccount, signedIn, startProfileApp, type Guest } from './support.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startProfileApp();
});
afterAll(async () => t?.close());

const PROFILE_FIELDS = [
  'id',
  'email',
  'email_confirmed',
  'status',
  'first_name',
  'last_name',
  'avatar_url',
  'birth_date',
  'gender',
  'phone',
  'phone_confirmed',
  'citizenship',
  'residence_country',
  'billing_address',
  'emergency_contact',
  'language',
  'currency',
  'verification_status',
  'verified_at',
  'notify_push',
  'notify_email',
  'notify_marketing',
  'bookings_count',
  'rating_avg',
  'rating_count',
  'created_at',
  'restrictions',
];

const patch = (g: Guest, body: unknown) => http(t.url, 'PATCH', '/v1/me', { token: g.token, body });

describe('GET /v1/me', () => {
  it('returns all 27 fields of ProfileResponse for a fresh account, with defaults', async () => {
    const g = await signedIn(t, { over: { marketing_opt_in: true } });
    const res = await http(t.url, 'GET', '/v1/me', { token: g.token });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual([...PROFILE_FIELDS].sort());
    expect(PROFILE_FIELDS).toHaveLength(27);
    expect(res.body).toMatchObject({
      id: g.accountId,
      email: g.email.toLowerCase(),
      email_confirmed: true,
      status: 'active',
      first_name: 'Anna',
      last_name: 'Lee',
      avatar_url: null,
      phone: null,
      phone_confirmed: false,
      verification_status: 'none',
      verified_at: null,
      notify_push: true,
      notify_email: true,
      notify_marketing: true,
      bookings_count: 0,
      rating_avg: null,
      rating_count: 0,
      restrictions: [],
    });
  });

  it('lists only the active restrictions of the account, as OwnRestriction', async () => {
    const g = await signedIn(t);
    const until = new Date(Date.now() + 86_400_000).toISOString();
    await t.sql.query(
      `insert into account_restrictions (account_id, kind, reason, until) values
         ($1, 'reviews', 'spam in reviews', $2), ($1, 'messaging', null, null)`,
      [g.accountId, until],
    );
    await t.sql.query(
      `insert into account_restrictions (account_id, kind, until) values ($1, 'booking', now() - interval '1 day')`,
      [g.accountId],
    );
    await t.sql.query(`insert into account_restrictions (account_id, kind, lifted_at) values ($1, 'login', now())`, [
      g.accountId,
    ]);
    const res = await http(t.url, 'GET', '/v1/me', { token: g.token });
    expect(res.status).toBe(200);
    const kinds = res.body.restrictions.map((r: any) => r.kind).sort();
    expect(kinds).toEqual(['messaging', 'reviews']);
    const reviews = res.body.restrictions.find((r: any) => r.kind === 'reviews');
    expect(reviews).toEqual({ kind: 'reviews', reason: 'spam in reviews', until, created_at: expect.any(String) });
  });

  it('is 401 without a token and works before the email is confirmed', async () => {
    expectEnvelope(await http(t.url, 'GET', '/v1/me'), 401, 'unauthorized');
    const g = await signedIn(t, { confirmed: false });
    const res = await http(t.url, 'GET', '/v1/me', { token: g.token });
    expect(res.status).toBe(200);
    expect(res.body.email_confirmed).toBe(false);
  });
});

describe('PATCH /v1/me', () => {
  it('changes only the fields present and normalises them', async () => {
    const g = await signedIn(t);
    const first = await patch(g, {
      first_name: ' Maria ',
      birth_date: '1990-02-28',
      gender: 'female',
      phone: '+66 81-234-5678',
      citizenship: 'th',
      residence_country: 'DE',
      billing_address: '1 Beach Rd, Phuket',
      emergency_contact: 'Tom +66811111111',
      language: 'ru',
      currency: 'usd',
      notify_push: false,
      notify_email: false,
      notify_marketing: true,
    });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      first_name: 'Maria',
      last_name: 'Lee',
      birth_date: '1990-02-28',
      gender: 'female',
      phone: '+66812345678',
      citizenship: 'TH',
      residence_country: 'DE',
      billing_address: '1 Beach Rd, Phuket',
      emergency_contact: 'Tom +66811111111',
      language: 'ru',
      currency: 'USD',
      notify_push: false,
      notify_email: false,
      notify_marketing: true,
    });
    // A body naming one field leaves every other as it was.
    const second = await patch(g, { last_name: 'Ivanova' });
    expect(second.status).toBe(200);
    expect({ ...second.body, last_name: 'Lee' }).toEqual(first.body);
    const read = await http(t.url, 'GET', '/v1/me', { token: g.token });
    expect(read.body).toEqual(second.body);
  });

  it('clears a field sent as null or empty, and leaves a field not sent', async () => {
    const g = await signedIn(t);
    await patch(g, { phone: '+447911123456', billing_address: 'Somewhere 1', citizenship: 'GB', notify_email: false });
    const res = await patch(g, { phone: null, billing_address: '', notify_email: null });
    expect(res.status).toBe(200);
    expect(res.body.phone).toBeNull();
    expect(res.body.billing_address).toBeNull();
    expect(res.body.citizenship).toBe('GB');
    // A boolean sent as null is "no change".
    expect(res.body.notify_email).toBe(false);
  });

  it('an empty body changes nothing', async () => {
    const g = await signedIn(t);
    const before = await http(t.url, 'GET', '/v1/me', { token: g.token });
    const res = await patch(g, {});
    expect(res.status).toBe(200);
    expect(res.body).toEqual(before.body);
  });

  const broken: Array<[string, unknown, string]> = [
    ['birth_date', '1990-13-01', 'a month 13'],
    ['birth_date', '1990-02-30', 'February 30'],
    ['birth_date', '02/03/1990', 'another format'],
    ['birth_date', '2999-01-01', 'a day in the future'],
    ['citizenship', 'XX', 'an unassigned country code'],
    ['residence_country', 'USA', 'an alpha-3 code'],
    ['language', 'de', 'an unsupported language'],
    ['currency', 'XYZ', 'an unknown currency'],
    ['phone', '0812345678', 'a national number without +country'],
    ['phone', '+66 81 234 5678 999 999', 'too many digits'],
    ['gender', 'robot', 'an unknown gender'],
    ['first_name', null, 'clearing the first name'],
    ['last_name', '  ', 'a blank last name'],
  ];
  for (const [field, value, what] of broken) {
    it(`refuses ${what} with 400 validation_error on ${field}, changing nothing`, async () => {
      const g = await signedIn(t);
      const res = await patch(g, { [field]: value, billing_address: 'must not be saved' });
      const e = expectEnvelope(res, 400, 'validation_error');
      expect(e.details.field).toBe(field);
      const read = await http(t.url, 'GET', '/v1/me', { token: g.token });
      expect(read.body.billing_address).toBeNull();
    });
  }

  it('answers a wrongly typed field with 422 schema_invalid naming it', async () => {
    const g = await signedIn(t);
    const e = expectEnvelope(await patch(g, { notify_push: 'yes' }), 422, 'schema_invalid');
    expect(e.details.fields).toEqual(['notify_push']);
  });

  it('refuses read-only fields (email, its confirmation, status, restrictions) with 422 naming them, changing nothing', async () => {
    // ASVS 5.0 8.2.3 (no write to a field the caller may only read), docs/security.md.
    const g = await signedIn(t);
    const before = (await http(t.url, 'GET', '/v1/me', { token: g.token })).body;
    const e = expectEnvelope(
      await patch(g, {
        first_name: 'Changed',
        email: 'someone.else@example.com',
        email_confirmed: true,
        status: 'active',
        restrictions: [],
      }),
      422,
      'schema_invalid',
    );
    expect([...e.details.fields].sort()).toEqual(['email', 'email_confirmed', 'restrictions', 'status']);
    expect((await http(t.url, 'GET', '/v1/me', { token: g.token })).body).toEqual(before);
  });

  it('a new phone number is unconfirmed; the same number keeps its confirmation', async () => {
    const g = await signedIn(t);
    await patch(g, { phone: '+66812345678' });
    await t.sql.query('update profiles set phone_confirmed_at = now() where account_id = $1', [g.accountId]);
    expect((await patch(g, { phone: '+66 812 345 678' })).body.phone_confirmed).toBe(true);
    const changed = await patch(g, { phone: '+66899999999' });
    expect(changed.body.phone_confirmed).toBe(false);
  });
});

describe('badges and the clearing calls (spec 6.2)', () => {
  async function seedCounters(g: Guest, other: Guest) {
    await t.sql.query(
      `insert into notifications (account_id, kind) values ($1, 'booking.status'), ($1, 'review.request'), ($1, 'x')`,
      [g.accountId],
    );
    await t.sql.query(`insert into notifications (account_id, kind, read_at) values ($1, 'old', now())`, [g.accountId]);
    await t.sql.query(`insert into notifications (account_id, kind) values ($1, 'not mine')`, [other.accountId]);
    const dialogs: string[] = [];
    for (let i = 0; i < 2; i++) {
      const { rows } = await t.sql.query('insert into dialogs default values returning id');
      dialogs.push(rows[0].id);
      await t.sql.query(`insert into dialog_participants (dialog_id, account_id) values ($1, $2), ($1, $3)`, [
        rows[0].id,
        g.accountId,
        other.accountId,
      ]);
    }
    // Dialog 0: two from the host, one from the guest (own messages are never unread).
    await t.sql.query(
      `insert into dialog_messages (dialog_id, sender_account_id, body) values ($1, $2, 'hi'), ($1, $2, 'there'), ($1, $3, 'me')`,
      [dialogs[0], other.accountId, g.accountId],
    );
    // Dialog 1: one from the host, one system message (no sender).
    await t.sql.query(
      `insert into dialog_messages (dialog_id, sender_account_id, body) values ($1, $2, 'hello'), ($1, null, 'booking confirmed')`,
      [dialogs[1], other.accountId],
    );
    await t.sql.query(
      `insert into assistant_messages (account_id, role, body) values ($1, 'assistant', 'a'), ($1, 'assistant', 'b'),
         ($1, 'guest', 'q'), ($1, 'assistant', 'seen')`,
      [g.accountId],
    );
    await t.sql.query(`update assistant_messages set seen_at = now() where body = 'seen'`);
    return dialogs as [string, string];
  }

  it('counts unread notifications, unread messages across conversations and unseen assistant messages', async () => {
    const g = await signedIn(t);
    const other = await signedIn(t);
    await seedCounters(g, other);
    const res = await http(t.url, 'GET', '/v1/me/badges', { token: g.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ notifications: 3, messages: 4, assistant: 2 });
    // The host sees the guest's message in dialog 0 and the system message in dialog 1 as unread.
    expect((await http(t.url, 'GET', '/v1/me/badges', { token: other.token })).body).toEqual({
      notifications: 1,
      messages: 2,
      assistant: 0,
    });
  });

  it('each clearing call resets its own counter, answers the new counts and tells the sockets', async () => {
    const g = await signedIn(t);
    const other = await signedIn(t);
    const [d0, d1] = await seedCounters(g, other);
    const socket = await listenToAccount(t, g.accountId);
    try {
      const n = await http(t.url, 'POST', '/v1/notifications/read', { token: g.token });
      expect(n.status).toBe(200);
      expect(n.body).toEqual({ notifications: 0, messages: 4, assistant: 2 });
      const pushed = await socket.next('badges.updated');
      expect(pushed.data).toEqual({ notifications: 0, messages: 4, assistant: 2 });

      const d = await http(t.url, 'POST', `/v1/chats/dialogs/${d0}/read`, { token: g.token });
      expect(d.body).toEqual({ notifications: 0, messages: 2, assistant: 2 });
      const d2 = await http(t.url, 'POST', `/v1/chats/dialogs/${d1}/read`, { token: g.token });
      expect(d2.body).toEqual({ notifications: 0, messages: 0, assistant: 2 });

      const a = await http(t.url, 'POST', '/v1/assistant/read', { token: g.token });
      expect(a.body).toEqual({ notifications: 0, messages: 0, assistant: 0 });
      const pushes = await socket.all('badges.updated', 4);
      expect(pushes.map((m) => m.data)).toEqual([
        { notifications: 0, messages: 4, assistant: 2 },
        { notifications: 0, messages: 2, assistant: 2 },
        { notifications: 0, messages: 0, assistant: 2 },
        { notifications: 0, messages: 0, assistant: 0 },
      ]);
    } finally {
      await socket.close();
    }
    // A new message after the marker is unread again; the other participant's counters were not touched.
    await t.sql.query(`insert into dialog_messages (dialog_id, sender_account_id, body) values ($1, $2, 'new')`, [
      d0,
      other.accountId,
    ]);
    expect((await http(t.url, 'GET', '/v1/me/badges', { token: g.token })).body.messages).toBe(1);
    expect((await http(t.url, 'GET', '/v1/me/badges', { token: other.token })).body).toEqual({
      notifications: 1,
      messages: 2,
      assistant: 0,
    });
  });

  it("marking a dialog the guest is not part of is 404, and changes nobody's counters", async () => {
    const g = await signedIn(t);
    const other = await signedIn(t);
    const third = await signedIn(t);
    const [d0] = await seedCounters(g, other);
    expectEnvelope(await http(t.url, 'POST', `/v1/chats/dialogs/${d0}/read`, { token: third.token }), 404, 'not_found');
    expectEnvelope(
      await http(t.url, 'POST', '/v1/chats/dialogs/00000000-0000-4000-8000-000000000000/read', { token: g.token }),
      404,
      'not_found',
    );
    const e = expectEnvelope(
      await http(t.url, 'POST', '/v1/chats/dialogs/nope/read', { token: g.token }),
      400,
      'validation_error',
    );
    expect(e.details.field).toBe('id');
    expect((await http(t.url, 'GET', '/v1/me/badges', { token: g.token })).body.messages).toBe(4);
  });

  it('badges need sign-in', async () => {
    expectEnvelope(await http(t.url, 'GET', '/v1/me/badges'), 401, 'unauthorized');
    expectEnvelope(await http(t.url, 'POST', '/v1/notifications/read'), 401, 'unauthorized');
    expectEnvelope(await http(t.url, 'POST', '/v1/assistant/read'), 401, 'unauthorized');
  });
});
