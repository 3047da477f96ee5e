import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../support/test-app.ts';
import { expectEnvelope, http } from '../../support/http.ts';
import { signedIn, startProfileApp, type Guest } from './support.ts';

let t: TestApp;
let listingIds: number[];
beforeAll(async () => {
  t = await startProfileApp();
  // The catalog side writes listings; here they are rows of the real `listings` table.
  const values = Array.from({ length: 7 }, (_, i) => i);
  const { rows } = await t.sql.query<{ id: number }>(
    `insert into listings (external_id, kind, status, title, description, original_lang, place_id, location_mode,
                           price_minor, currency, price_unit, photos, languages, created_at, content_hash, version)
     select 'fav-' || i, case when i % 2 = 0 then 'stay' else 'experience' end, 'published',
            jsonb_build_object('en', 'Listing ' || i, 'ru', 'Объект ' || i), '{"en": ""}', 'en', 1, 'exact',
            100000, 'THB', 'night', '[]', '{en}', now(), 'h', 1
       from unnest($1::int[]) as i
     order by i
     returning id`,
    [values],
  );
  listingIds = rows.map((r) => r.id);
});
afterAll(async () => t?.close());

const put = (g: Guest, id: number | string) => http(t.url, 'PUT', `/v1/me/favorites/${id}`, { token: g.token });
const del = (g: Guest, id: number | string) => http(t.url, 'DELETE', `/v1/me/favorites/${id}`, { token: g.token });
const list = (g: Guest, q = '') => http(t.url, 'GET', `/v1/me/favorites${q}`, { token: g.token });

describe('favorites', () => {
  it('PUT saves a listing and is idempotent: the second PUT keeps the first one', async () => {
    const g = await signedIn(t);
    const first = await put(g, listingIds[0]!);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ listing_id: listingIds[0], is_favorite: true, added_at: expect.any(String) });
    const second = await put(g, listingIds[0]!);
    expect(second.status).toBe(200);
    expect(second.body).toEqual(first.body);
    const { rows } = await t.sql.query('select count(*)::int as n from favorites where account_id = $1', [g.accountId]);
    expect(rows[0].n).toBe(1);
  });

  it('PUT of a listing that does not exist in the catalog is 404 and saves nothing', async () => {
    const g = await signedIn(t);
    expectEnvelope(await put(g, 999_999), 404, 'not_found');
    expect((await list(g)).body.items).toEqual([]);
    const e = expectEnvelope(await put(g, 'abc'), 400, 'validation_error');
    expect(e.details.field).toBe('listing_id');
  });

  it('PUT of a draft or archived listing is 404, like one the catalog does not have', async () => {
    const g = await signedIn(t);
    for (const status of ['draft', 'archived']) {
      await t.sql.query('update listings set status = $1 where id = $2', [status, listingIds[6]]);
      expectEnvelope(await put(g, listingIds[6]!), 404, 'not_found');
    }
    await t.sql.query(`update listings set status = 'published' where id = $1`, [listingIds[6]]);
    expect((await list(g)).body.items).toEqual([]);
  });

  it('concurrent PUTs of one listing all answer 200 with the same time and save one row', async () => {
    for (let round = 0; round < 5; round++) {
      const g = await signedIn(t);
      const answers = await Promise.all(Array.from({ length: 6 }, () => put(g, listingIds[5]!)));
      expect(answers.map((a) => a.status)).toEqual(Array(6).fill(200));
      expect(new Set(answers.map((a) => a.body.added_at)).size).toBe(1);
      const { rows } = await t.sql.query('select count(*)::int as n from favorites where account_id = $1', [
        g.accountId,
      ]);
      expect(rows[0].n).toBe(1);
    }
  });

  it('DELETE removes it and is idempotent', async () => {
    const g = await signedIn(t);
    await put(g, listingIds[1]!);
    expect((await del(g, listingIds[1]!)).status).toBe(204);
    expect((await del(g, listingIds[1]!)).status).toBe(204);
    expect((await del(g, 999_999)).status).toBe(204);
    expect((await list(g)).body.items).toEqual([]);
  });

  it("GET pages the guest's favorites newest first with an opaque cursor, in the request language", async () => {
    const g = await signedIn(t);
    const other = await signedIn(t);
    await put(other, listingIds[6]!);
    for (const id of listingIds.slice(0, 5)) await put(g, id);
    const seen: number[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const q: string = `?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const res = await http(t.url, 'GET', `/v1/me/favorites${q}`, {
        token: g.token,
        headers: { 'accept-language': 'ru' },
      });
      expect(res.status).toBe(200);
      expect(res.body.items.length).toBeLessThanOrEqual(2);
      expect(res.body.has_more).toBe(res.body.next_cursor !== null);
      seen.push(...res.body.items.map((i: any) => i.listing_id));
      if (pages === 0) expect(res.body.items[0]).toMatchObject({ kind: 'stay', title: 'Объект 4' });
      cursor = res.body.next_cursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toEqual(listingIds.slice(0, 5).reverse());
  });

  it('refuses a cursor of another list or one edited by the client, and a limit out of range', async () => {
    const g = await signedIn(t);
    const e = expectEnvelope(await list(g, '?cursor=abc.def'), 400, 'validation_error');
    expect(e.details.field).toBe('cursor');
    expectEnvelope(await list(g, '?limit=0'), 400, 'validation_error');
    expectEnvelope(await list(g, '?limit=101'), 400, 'validation_error');
  });

  it('needs sign-in', async () => {
    expectEnvelope(await http(t.url, 'GET', '/v1/me/favorites'), 401, 'unauthorized');
    expectEnvelope(await http(t.url, 'PUT', `/v1/me/favorites/${listingIds[0]}`), 401, 'unauthorized');
  });
});
