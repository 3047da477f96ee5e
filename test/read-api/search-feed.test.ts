import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import { signAccessToken } from '@guest/auth';
import { importCatalogText, reindexAll } from '@guest/indexer';
import { readApi } from '@guest/read-api';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { expectEnvelope } from '../support/http.ts';
import { allPages, exactCards, loadCatalog, search, titleCode } from './search/support.ts';

/**
 * Spec 4.7 feed: sorts, cursor pagination (search_after with a unique tie-breaker, signed), texts
 * in the request language with the translation marker, the card of DESIGN.md section 4, and
 * `is_favorite` only for signed-in guests.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ apps: [readApi] });
  await loadCatalog(t, 'catalog.ndjson');
});
afterAll(async () => t?.close());

const en = { lang: 'en' };
const titles = (items: Array<{ title: string }>) => items.map((i) => titleCode(i.title));

async function signIn(): Promise<{ token: string; accountId: string }> {
  const {
    rows: [account],
  } = await t.sql.query<{ id: string }>(
    `insert into accounts (email, first_name, last_name, email_confirmed_at) values ($1, 'Ann', 'Guest', now()) returning id`,
    [`guest-${Date.now()}@example.com`],
  );
  const {
    rows: [session],
  } = await t.sql.query<{ id: string }>(
    `insert into sessions (account_id, refresh_token_hash, ip, expires_at, absolute_expires_at)
     values ($1, md5(random()::text), '127.0.0.1', now() + interval '1 day', now() + interval '30 days') returning id`,
    [account!.id],
  );
  const token = await signAccessToken(
    t.config,
    { accountId: account!.id, sessionId: session!.id },
    t.runtime.clock.now(),
  );
  return { token, accountId: account!.id };
}

describe('sorts', () => {
  it('price_asc: cheapest first across currencies (USD converted), ties broken by id', async () => {
    const items = await allPages(t, { ...en, sort: 'price_asc', limit: 3 });
    expect(items).toHaveLength(15);
    expect(titles(items).slice(0, 2).sort()).toEqual(['F1', 'T1']);
    expect(titles(items).at(-1)).toBe('S1');
    const base = items.map((i) => (i.currency === 'USD' ? 177936 : i.currency === 'EUR' ? 381679 : i.price_minor));
    expect(base).toEqual([...base].sort((a, b) => a - b));
    // Equal prices (T1 and F1 at 300 THB) come in id order, and each appears once.
    const tie = items.filter((i) => i.price_minor === 30000);
    expect(tie.map((i) => i.id)).toEqual([...tie.map((i) => i.id)].sort((a, b) => a - b));
    expect(new Set(items.map((i) => i.id)).size).toBe(15);
  });

  it('price_desc: dearest first', async () => {
    const items = await allPages(t, { ...en, sort: 'price_desc', limit: 4 });
    expect(titles(items).slice(0, 2)).toEqual(['S1', 'E3']);
    expect(titles(items).slice(-2).sort()).toEqual(['F1', 'T1']);
  });

  it('rating: best rated first, unrated last, ties by more reviews', async () => {
    const items = await allPages(t, { ...en, sort: 'rating', limit: 5 });
    const ratings = items.map((i) => i.rating_avg);
    expect(titles(items)[0]).toBe('E3');
    expect(ratings.at(-1)).toBeNull();
    const rated = ratings.filter((r) => r !== null) as number[];
    expect(rated).toEqual([...rated].sort((a, b) => b - a));
  });

  it('distance: nearest first from near, with distance_m; city_only last without distance', async () => {
    const items = await allPages(t, { ...en, sort: 'distance', near: '7.8965,98.2966', limit: 4 });
    expect(titles(items).slice(0, 1)).toEqual(['V2']);
    const d = items.filter((i) => i.point).map((i) => i.distance_m);
    expect(d.every((x) => typeof x === 'number')).toBe(true);
    expect(d).toEqual([...d].sort((a, b) => a - b));
    expect(titles(items).at(-1)).toBe('S4');
    expect(items.at(-1)).not.toHaveProperty('distance_m');
  });

  it('new: newest created first', async () => {
    const items = await allPages(t, { ...en, sort: 'new', limit: 6 });
    expect(titles(items).slice(0, 3)).toEqual(['S3', 'V2', 'S4']);
  });

  it('relevance with q: the listing named by every word ranks first', async () => {
    const res = await search(t, 'listings', { ...en, q: 'Kata villa' });
    expect(titles(res.body.items)[0]).toBe('S1');
  });
});

describe('cursor pagination', () => {
  it('pages of any size give the same sequence as one big page; no offset, has_more on the last is false', async () => {
    const one = await search(t, 'listings', { ...en, sort: 'rating', limit: 100 });
    expect(one.body.has_more).toBe(false);
    expect(one.body.next_cursor).toBeNull();
    for (const limit of [1, 2, 7]) {
      const paged = await allPages(t, { ...en, sort: 'rating', limit });
      expect(paged.map((i) => i.id)).toEqual(one.body.items.map((i: any) => i.id));
    }
  });

  it('limit defaults to SEARCH_LIMIT_DEFAULT and has_more tells whether more follow', async () => {
    const res = await search(t, 'listings', { limit: 14 });
    expect(res.body.items).toHaveLength(14);
    expect(res.body.has_more).toBe(true);
    expect(typeof res.body.next_cursor).toBe('string');
    const all = await search(t, 'listings', {});
    expect(all.body.items).toHaveLength(Math.min(15, t.config.SEARCH_LIMIT_DEFAULT));
  });

  it('a cursor is refused with other filters or another sort, or when edited', async () => {
    const first = await search(t, 'listings', { sort: 'price_asc', limit: 2 });
    const cursor = first.body.next_cursor as string;
    const otherSort = await search(t, 'listings', { sort: 'rating', limit: 2, cursor });
    expect(expectEnvelope(otherSort, 400, 'validation_error').details.field).toBe('cursor');
    const otherFilter = await search(t, 'listings', { sort: 'price_asc', kind: 'stay', limit: 2, cursor });
    expect(expectEnvelope(otherFilter, 400, 'validation_error').details.field).toBe('cursor');
    const edited = await search(t, 'listings', { sort: 'price_asc', limit: 2, cursor: `x${cursor}` });
    expect(expectEnvelope(edited, 400, 'validation_error').details.field).toBe('cursor');
    // Another page size is fine: the cursor marks a position, not a page number.
    const ok = await search(t, 'listings', { sort: 'price_asc', limit: 5, cursor });
    expect(ok.status).toBe(200);
  });
});

describe('cards and language', () => {
  it('texts in the request language with the marker; English when missing', async () => {
    const ru = await search(t, 'listings', { lang: 'ru', q: 'Kata', kind: 'stay' });
    expect(ru.body.items[0]).toMatchObject({ title: 'Вилла с видом на море', lang: 'ru', translated: false });
    expect(ru.body.items[0].place).toMatchObject({ slug: 'kata', name: 'Ката' });
    const enCard = await search(t, 'listings', { lang: 'en', q: 'Kata', kind: 'stay' });
    expect(enCard.body.items[0]).toMatchObject({ title: 'Kata sea-view villa', lang: 'en', translated: true });
    const th = await search(t, 'listings', { lang: 'th', q: 'Karon', kind: 'stay' });
    expect(th.body.items[0]).toMatchObject({ title: 'Karon family apartment', lang: 'en', translated: false });
    expect(th.body.items[0].place.name).toBe('กะรน');
  });

  it('Accept-Language picks the language when lang is absent', async () => {
    const res = await search(t, 'listings', { q: 'Sukhumvit' }, { headers: { 'accept-language': 'zh-CN,zh;q=0.9' } });
    expect(res.body.items[0]).toMatchObject({
      title: '素坤逸城市公寓',
      lang: 'zh-Hans',
      translated: false,
      point: null,
    });
  });

  it('the card of DESIGN.md: photo with large possibly null, no photo as null, no is_favorite when anonymous', async () => {
    const items = await allPages(t, { ...en, limit: 100 });
    const byCode = Object.fromEntries(items.map((i) => [titleCode(i.title), i]));
    expect(byCode.S1).toEqual({
      id: expect.any(Number),
      kind: 'stay',
      title: 'Kata sea-view villa',
      place: { id: expect.any(Number), slug: 'kata', name: 'Kata' },
      point: { lat: 7.8195, lon: 98.299 },
      price_minor: 450000,
      currency: 'THB',
      price_unit: 'night',
      rating_avg: 4.8,
      rating_count: 132,
      instant_book: true,
      photo: { thumb: 'https://img.example/S1/480.jpg', medium: 'https://img.example/S1/1600.jpg', large: null },
      lang: 'en',
      translated: true,
    });
    expect(byCode.S2.photo.large).toBe('https://img.example/S2/2560.jpg');
    expect(byCode.S4.photo).toBeNull();
    for (const i of items) expect(i).not.toHaveProperty('is_favorite');
  });

  it('signed-in guests get is_favorite on every card, true for their favorites only', async () => {
    const { token, accountId } = await signIn();
    const anon = await allPages(t, { ...en, limit: 100 });
    const s1 = anon.find((i) => titleCode(i.title) === 'S1')!;
    const e2 = anon.find((i) => titleCode(i.title) === 'E2')!;
    await t.sql.query('insert into favorites (account_id, listing_id) values ($1, $2), ($1, $3)', [
      accountId,
      s1.id,
      e2.id,
    ]);
    const items = await allPages(t, { ...en, limit: 4 }, { token });
    expect(items).toHaveLength(15);
    for (const i of items) expect(i.is_favorite, i.title).toBe(i.id === s1.id || i.id === e2.id);
  });

  it('a bad token on the optional sign-in is 401, so the client refreshes', async () => {
    const res = await search(t, 'listings', {}, { token: 'not.a.token' });
    expectEnvelope(res, 401, 'unauthorized');
  });
});

describe('count is light and agrees with the feed', () => {
  it('count equals the number of exact cards the feed pages through (related ones come after them)', async () => {
    const cases: Array<Record<string, string>> = [
      {},
      { kind: 'food' },
      { q: 'Patong' },
      { q: 'Патонг', kind: 'experience' },
    ];
    for (const params of cases) {
      const items = exactCards(await allPages(t, { ...params, limit: 3 }));
      const count = await search(t, 'count', params);
      expect(count.body).toEqual({ count: items.length });
    }
  });
});

describe('cursor while the index changes', () => {
  it('pages after a change neither repeat nor skip listings that were there, and later ones show up', async () => {
    const first = await search(t, 'listings', { ...en, sort: 'price_asc', limit: 5 });
    const seen = titles(first.body.items);
    // Meanwhile: a new cheap listing (sorts before the cursor), a new dear one (after it), and one
    // not yet seen is archived; the indexer rebuilds and swaps the alias.
    const listing = (id: string, price: number, status = 'published') =>
      JSON.stringify({
        type: 'listing',
        external_id: id,
        kind: 'food',
        status,
        title: { en: `Cursor test ${id}` },
        original_lang: 'en',
        place: 'P-KATA',
        location: { lat: 7.82, lon: 98.298, mode: 'exact' },
        price: { amount_minor: price, currency: 'THB', unit: 'item' },
        created_at: '2026-11-01T00:00:00Z',
        food: { format: 'cafe', diets: [], alcohol: false },
      });
    await importCatalogText(t.runtime.database, [listing('N-CHEAP', 100), listing('N-DEAR', 9_000_000)].join('\n'));
    await t.sql.query(`update listings set status = 'archived' where external_id = 'T2'`);
    await reindexAll(t.runtime, pino({ level: 'silent' }), { absorbOutbox: true, oldIndexGraceMs: 0 });

    const rest: string[] = [];
    let cursor = first.body.next_cursor as string;
    for (;;) {
      const res = await search(t, 'listings', { ...en, sort: 'price_asc', limit: 5, cursor });
      rest.push(...res.body.items.map((i: any) => i.title));
      if (!res.body.has_more) break;
      cursor = res.body.next_cursor;
    }
    const after = rest.map((x) => (x.startsWith('Cursor test') ? x : titleCode(x)));
    expect(after).not.toContain('Cursor test N-CHEAP');
    expect(after.at(-1)).toBe('Cursor test N-DEAR');
    expect(after).not.toContain('T2');
    for (const s of seen) expect(after).not.toContain(s);
    const expectedRest = ['S1', 'S2', 'S3', 'S4', 'E1', 'E2', 'E3', 'V1', 'V2', 'T1', 'T3', 'F1', 'F2', 'F3'].filter(
      (c) => !seen.includes(c),
    );
    expect(after.filter((x) => !x.startsWith('Cursor')).sort()).toEqual(expectedRest.sort());
  });
});
