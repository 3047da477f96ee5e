import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../support/test-app.ts';
import { http } from '../../support/http.ts';
import { seedDemoTransactions } from '@guest/write-api/demo';
import { login, waitForMail } from '../auth/support.ts';
import { signedIn, startProfileApp } from './support.ts';
import { jpegWithGps } from './images.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startProfileApp();
});
afterAll(async () => t?.close());

async function avatarFiles(): Promise<string[]> {
  try {
    return await readdir(path.join(t.config.STORAGE_DIR, 'avatars'));
  } catch {
    return [];
  }
}

describe('account deletion erases the profile', () => {
  it('after delete-confirm, phone, birth date, addresses, prefs, devices and the avatar file are gone', async () => {
    const g = await signedIn(t);
    const keep = await signedIn(t);
    const profile = {
      birth_date: '1988-05-04',
      gender: 'male',
      phone: '+66812345678',
      citizenship: 'TH',
      residence_country: 'TH',
      billing_address: '1 Beach Rd',
      emergency_contact: 'Mother +66811111111',
      language: 'th',
      currency: 'THB',
    };
    for (const who of [g, keep]) {
      expect((await http(t.url, 'PATCH', '/v1/me', { token: who.token, body: profile })).status).toBe(200);
      const form = new FormData();
      form.append('file', new Blob([await jpegWithGps()], { type: 'image/jpeg' }), 'me.jpg');
      const up = await fetch(`${t.url}/v1/me/avatar`, {
        method: 'PUT',
        body: form,
        headers: { authorization: `Bearer ${who.token}` },
      });
      expect(up.status).toBe(200);
    }
    await http(t.url, 'PUT', '/v1/me/email-prefs', { token: g.token, body: { prefs: { 'booking.reminder': false } } });
    await http(t.url, 'PUT', '/v1/me/search-filters', { token: g.token, body: { stay: { q: 'Kata beach' } } });
    await http(t.url, 'POST', '/v1/devices', {
      token: g.token,
      body: { device_id: 'd1', platform: 'android', push_permission: true, push_token: 'fcm-1' },
    });
    expect(await avatarFiles()).toHaveLength(2);

    expect((await http(t.url, 'POST', '/v1/auth/delete-request', { token: g.token })).status).toBe(202);
    const { token } = await waitForMail(t, g.email, /deletion/i);
    const confirmed = await http(t.url, 'POST', '/v1/auth/delete-confirm', { body: { token } });
    expect(confirmed.status).toBe(200);

    const { rows } = await t.sql.query('select * from profiles where account_id = $1', [g.accountId]);
    expect(rows[0]).toMatchObject({
      birth_date: null,
      gender: null,
      phone: null,
      citizenship: null,
      residence_country: null,
      billing_address: null,
      emergency_contact: null,
      language: null,
      currency: null,
      avatar_media_id: null,
      email_prefs: {},
      search_filters: {},
    });
    const devices = await t.sql.query('select count(*)::int as n from devices where account_id = $1', [g.accountId]);
    expect(devices.rows[0].n).toBe(0);
    const media = await t.sql.query('select deleted_at from media_files where owner_account_id = $1', [g.accountId]);
    expect(media.rows.every((r) => r.deleted_at !== null)).toBe(true);
    // Only the other person's avatar file is left in the storage, and their profile is untouched.
    expect(await avatarFiles()).toHaveLength(1);
    const other = await http(t.url, 'GET', '/v1/me', { token: keep.token });
    expect(other.body).toMatchObject(profile);
    expect(other.body.avatar_url).not.toBeNull();
  });

  it('keeps the payments the law requires: transactions survive delete-confirm, tied only to the erased account', async () => {
    const g = await signedIn(t);
    const ids = await seedDemoTransactions(t.runtime.database.db, g.accountId, t.runtime.clock.now());
    const listed = await http(t.url, 'GET', '/v1/me/transactions', { token: g.token });
    expect(listed.status).toBe(200);
    expect(listed.body.items.map((i: { id: string }) => i.id).sort()).toEqual([...ids].sort());
    const txBefore = await t.sql.query('select * from transactions where account_id = $1 order by id', [g.accountId]);

    expect((await http(t.url, 'POST', '/v1/auth/delete-request', { token: g.token })).status).toBe(202);
    const { token } = await waitForMail(t, g.email, /deletion/i);
    expect((await http(t.url, 'POST', '/v1/auth/delete-confirm', { body: { token } })).status).toBe(200);

    // Every transaction row is still there, unchanged, under the same (now anonymous) account id.
    const txAfter = await t.sql.query('select * from transactions where id = any($1) order by id', [ids]);
    expect(txAfter.rows).toHaveLength(ids.length);
    expect(txAfter.rows).toEqual(txBefore.rows);
    // The person behind that id is gone: no email, name or password, status deleted.
    const { rows } = await t.sql.query(
      'select email, password_hash, first_name, last_name, status, deleted_at from accounts where id = $1',
      [g.accountId],
    );
    expect(rows[0]).toMatchObject({
      email: null,
      password_hash: null,
      first_name: '',
      last_name: '',
      status: 'deleted',
    });
    expect(rows[0].deleted_at).not.toBeNull();
    // And nobody can reach the records through the API any more.
    expect((await http(t.url, 'GET', '/v1/me/transactions', { token: g.token })).status).toBe(401);
    expect((await login(t, g.email, g.password)).status).toBe(401);
  });
});
