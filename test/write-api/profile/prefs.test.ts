import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../support/test-app.ts';
import { expectEnvelope, http } from '../../support/http.ts';
import { signedIn, startProfileApp, type Guest } from './support.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startProfileApp();
});
afterAll(async () => t?.close());

type Group = { code: string; items: Array<{ code: string; enabled: boolean; default: boolean; marketing: boolean }> };
const flat = (groups: Group[]) => Object.fromEntries(groups.flatMap((g) => g.items.map((i) => [i.code, i.enabled])));

describe('email preferences (DESIGN G6b)', () => {
  it('codes never touched show the registry defaults: marketing follows the opt-in, the rest are on', async () => {
    for (const optIn of [false, true]) {
      const g = await signedIn(t, { over: { marketing_opt_in: optIn } });
      const res = await http(t.url, 'GET', '/v1/me/email-prefs', { token: g.token });
      expect(res.status).toBe(200);
      const prefs = flat(res.body.groups);
      expect(prefs).toMatchObject({ 'booking.reminder': true, 'booking.status': true, 'review.request': true });
      expect(prefs['marketing.news']).toBe(optIn);
      for (const group of res.body.groups as Group[]) {
        for (const item of group.items) expect(item.default).toBe(item.marketing ? optIn : true);
      }
    }
  });

  it('emails that answer the guest’s own action are not in the settings and cannot be turned off', async () => {
    const g = await signedIn(t);
    const res = await http(t.url, 'GET', '/v1/me/email-prefs', { token: g.token });
    const codes = Object.keys(flat(res.body.groups));
    expect(codes.filter((c) => /confirm|password|reset|delete|account/.test(c))).toEqual([]);
    const e = expectEnvelope(
      await http(t.url, 'PUT', '/v1/me/email-prefs', {
        token: g.token,
        body: { prefs: { 'account.password_reset': false } },
      }),
      400,
      'email_pref_unknown',
    );
    expect(e.details.codes).toEqual(['account.password_reset']);
  });

  it('PUT changes the named codes only and keeps them; an unknown code changes nothing', async () => {
    const g = await signedIn(t);
    const put = await http(t.url, 'PUT', '/v1/me/email-prefs', {
      token: g.token,
      body: { prefs: { 'booking.reminder': false, 'marketing.news': true } },
    });
    expect(put.status).toBe(200);
    expect(flat(put.body.groups)).toMatchObject({
      'booking.reminder': false,
      'marketing.news': true,
      'booking.status': true,
    });
    const bad = await http(t.url, 'PUT', '/v1/me/email-prefs', {
      token: g.token,
      body: { prefs: { 'booking.status': false, 'no.such.code': true } },
    });
    const e = expectEnvelope(bad, 400, 'email_pref_unknown');
    expect(e.details.codes).toEqual(['no.such.code']);
    const read = await http(t.url, 'GET', '/v1/me/email-prefs', { token: g.token });
    expect(flat(read.body.groups)).toEqual(flat(put.body.groups));
  });

  it('a push code is unknown as an email code', async () => {
    const g = await signedIn(t);
    expectEnvelope(
      await http(t.url, 'PUT', '/v1/me/email-prefs', { token: g.token, body: { prefs: { 'event.reminder': false } } }),
      400,
      'email_pref_unknown',
    );
  });

  it('needs a confirmed email; a malformed body is 422', async () => {
    const u = await signedIn(t, { confirmed: false });
    expectEnvelope(await http(t.url, 'GET', '/v1/me/email-prefs', { token: u.token }), 403, 'email_not_confirmed');
    const g = await signedIn(t);
    expectEnvelope(
      await http(t.url, 'PUT', '/v1/me/email-prefs', { token: g.token, body: { prefs: { 'booking.status': 'no' } } }),
      422,
      'schema_invalid',
    );
  });
});

describe('push preferences', () => {
  const get = (g: Guest) => http(t.url, 'GET', '/v1/me/push-prefs', { token: g.token });
  const put = (g: Guest, body: unknown) => http(t.url, 'PUT', '/v1/me/push-prefs', { token: g.token, body });

  it('shows the master switch on and registry defaults for a new account', async () => {
    const g = await signedIn(t);
    const res = await get(g);
    expect(res.status).toBe(200);
    expect(res.body.enabled).toBe(true);
    expect(flat(res.body.groups)).toMatchObject({
      'message.new': true,
      'booking.status': true,
      'event.reminder': true,
    });
    expect(flat(res.body.groups)['marketing.offers']).toBe(false);
  });

  it('the master switch turns pushes off without losing the codes, and is notify_push of the profile', async () => {
    const g = await signedIn(t);
    await put(g, { prefs: { 'event.reminder': false } });
    const off = await put(g, { enabled: false });
    expect(off.status).toBe(200);
    expect(off.body.enabled).toBe(false);
    expect(flat(off.body.groups)['event.reminder']).toBe(false);
    expect(flat(off.body.groups)['message.new']).toBe(true);
    expect((await http(t.url, 'GET', '/v1/me', { token: g.token })).body.notify_push).toBe(false);
    // enabled: null leaves the switch as it is; PATCH /v1/me turns it back on.
    expect((await put(g, { enabled: null, prefs: { 'message.new': false } })).body.enabled).toBe(false);
    await http(t.url, 'PATCH', '/v1/me', { token: g.token, body: { notify_push: true } });
    const back = await get(g);
    expect(back.body.enabled).toBe(true);
    expect(flat(back.body.groups)).toMatchObject({ 'message.new': false, 'event.reminder': false });
  });

  it('an unknown code is 400 push_pref_unknown and nothing changes, not even the switch', async () => {
    const g = await signedIn(t);
    const e = expectEnvelope(
      await put(g, { enabled: false, prefs: { 'booking.reminder.sms': false } }),
      400,
      'push_pref_unknown',
    );
    expect(e.details.codes).toEqual(['booking.reminder.sms']);
    expect((await get(g)).body.enabled).toBe(true);
  });
});

describe('POST /v1/devices', () => {
  it("registers a device's push permission for the current session and updates it in place", async () => {
    const g = await signedIn(t);
    const first = await http(t.url, 'POST', '/v1/devices', {
      token: g.token,
      body: {
        device_id: 'ios-abc',
        platform: 'ios',
        push_permission: true,
        push_token: 'apns-1',
        app_version: '3.2.0',
      },
    });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      device_id: 'ios-abc',
      platform: 'ios',
      push_permission: true,
      has_push_token: true,
      session_id: g.tokens.session_id,
    });
    const second = await http(t.url, 'POST', '/v1/devices', {
      token: g.token,
      body: { device_id: 'ios-abc', platform: 'ios', push_permission: false },
    });
    expect(second.body.id).toBe(first.body.id);
    expect(second.body.push_permission).toBe(false);
    // The token was not sent, so it was kept.
    expect(second.body.has_push_token).toBe(true);
    const { rows } = await t.sql.query(
      'select count(*)::int as n, bool_or(push_permitted) as p from devices where account_id = $1',
      [g.accountId],
    );
    expect(rows[0]).toEqual({ n: 1, p: false });
  });

  it('accepts Idempotency-Key: a repeat answers the same and creates no second record', async () => {
    const g = await signedIn(t);
    const send = () =>
      http(t.url, 'POST', '/v1/devices', {
        token: g.token,
        headers: { 'idempotency-key': 'device-key-0001' },
        body: { device_id: 'web-1', platform: 'web', push_permission: true },
      });
    const [a, b] = [await send(), await send()];
    expect(a.status).toBe(200);
    expect(b.body).toEqual(a.body);
    const { rows } = await t.sql.query('select count(*)::int as n from devices where account_id = $1', [g.accountId]);
    expect(rows[0].n).toBe(1);
  });

  it('refuses an unknown platform with 422 and needs sign-in', async () => {
    const g = await signedIn(t);
    const e = expectEnvelope(
      await http(t.url, 'POST', '/v1/devices', {
        token: g.token,
        body: { device_id: 'x', platform: 'symbian', push_permission: true },
      }),
      422,
      'schema_invalid',
    );
    expect(e.details.fields).toEqual(['platform']);
    expectEnvelope(
      await http(t.url, 'POST', '/v1/devices', { body: { device_id: 'x', platform: 'ios', push_permission: true } }),
      401,
      'unauthorized',
    );
  });
});

describe('search filters', () => {
  const get = (g: Guest) => http(t.url, 'GET', '/v1/me/search-filters', { token: g.token });
  const put = (g: Guest, body: unknown) => http(t.url, 'PUT', '/v1/me/search-filters', { token: g.token, body });

  it('starts empty', async () => {
    const g = await signedIn(t);
    expect((await get(g)).body).toEqual({ stay: {}, experience: {}, service: {}, map_view: {} });
  });

  it('sections absent from the body stay as they were; a sent section replaces; null clears', async () => {
    const g = await signedIn(t);
    const stay = { price_min: 1000, amenities: ['pool', 'wifi'], pets_allowed: true };
    const map = { lat: 7.88, lon: 98.39, zoom: 11 };
    expect((await put(g, { stay, map_view: map })).body).toEqual({ stay, experience: {}, service: {}, map_view: map });
    const exp = { category_id: [3], languages: ['en'] };
    const second = await put(g, { experience: exp });
    expect(second.body).toEqual({ stay, experience: exp, service: {}, map_view: map });
    const third = await put(g, { stay: { guests: 2 }, map_view: null });
    expect(third.body).toEqual({ stay: { guests: 2 }, experience: exp, service: {}, map_view: {} });
    expect((await get(g)).body).toEqual(third.body);
  });

  it('refuses an oversized section with 400 naming it, a non-object with 422; needs a confirmed email', async () => {
    const g = await signedIn(t);
    const e = expectEnvelope(await put(g, { service: { q: 'x'.repeat(9000) } }), 400, 'validation_error');
    expect(e.details.field).toBe('service');
    expectEnvelope(await put(g, { stay: 'cheap' }), 422, 'schema_invalid');
    expect((await get(g)).body.service).toEqual({});
    const u = await signedIn(t, { confirmed: false });
    expectEnvelope(await get(u), 403, 'email_not_confirmed');
  });
});
