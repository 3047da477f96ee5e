import { describe, expect, it } from 'vitest';
import { SearchFilters } from './params.ts';
import { buildFeedRequest, requestFingerprint } from './feed.ts';
import { buildSort, distanceM } from './sort.ts';
import { toListingCard, type CardSource } from './cards.ts';

describe('buildSort: every order ends with the unique id', () => {
  it('each sort', () => {
    expect(buildSort('relevance', { hasText: true })).toEqual([
      { _score: { order: 'desc' } },
      { id: { order: 'asc' } },
    ]);
    expect(buildSort('relevance', { hasText: false })).toEqual(buildSort('rating', { hasText: false }));
    expect(buildSort('price_asc', { hasText: false })).toEqual([
      { price_base_minor: { order: 'asc', missing: Number.MAX_SAFE_INTEGER } },
      { id: { order: 'asc' } },
    ]);
    expect(buildSort('price_desc', { hasText: false })).toEqual([
      { price_base_minor: { order: 'desc', missing: -1 } },
      { id: { order: 'asc' } },
    ]);
    expect(buildSort('new', { hasText: false })).toEqual([
      { created_at: { order: 'desc' } },
      { id: { order: 'desc' } },
    ]);
    expect(buildSort('distance', { hasText: false, near: { lat: 7, lon: 98 } })).toEqual([
      { _geo_distance: { location: { lat: 7, lon: 98 }, order: 'asc', unit: 'm', distance_type: 'arc' } },
      { id: { order: 'asc' } },
    ]);
  });

  it('haversine distance matches a known one (1 degree of latitude ≈ 111.2 km)', () => {
    expect(Math.round(distanceM({ lat: 7, lon: 98 }, { lat: 8, lon: 98 }) / 100)).toBe(1112);
  });
});

describe('feed request', () => {
  const ctx = { fx: { base: 'THB', rates: {} }, baseCurrency: 'THB' };
  it('asks for limit + 1 hits, no total, card fields only, search_after from the cursor', () => {
    const body = buildFeedRequest(SearchFilters.parse({ kind: 'stay' }), ctx, {
      sort: 'new',
      limit: 20,
      searchAfter: [123, 7],
    }) as any;
    expect(body.size).toBe(21);
    expect(body.track_total_hits).toBe(false);
    expect(body.search_after).toEqual([123, 7]);
    expect(body._source).not.toContain('description');
  });

  it('fingerprint: same filters in any order agree, other filters or sort differ', () => {
    const a = SearchFilters.parse({ kind: 'stay', q: 'kata' });
    const b = SearchFilters.parse({ q: 'kata', kind: 'stay' });
    expect(requestFingerprint(a, 'new')).toBe(requestFingerprint(b, 'new'));
    expect(requestFingerprint(a, 'new')).not.toBe(requestFingerprint(a, 'rating'));
    expect(requestFingerprint(a, 'new')).not.toBe(requestFingerprint(SearchFilters.parse({ kind: 'food' }), 'new'));
  });
});

describe('cards', () => {
  const doc: CardSource = {
    id: 5,
    kind: 'stay',
    title: { ru: 'Вилла', en: 'Villa' },
    original_lang: 'ru',
    place: { id: 3, slug: 'kata', level: 'district', name: { en: 'Kata', ru: 'Ката' } },
    location: { lat: 7.8, lon: 98.3 },
    price_minor: 450000,
    currency: 'THB',
    price_unit: 'night',
    rating_avg: 4.8,
    rating_count: 10,
    instant_book: true,
    cover_photo: { thumb: 't', medium: 'm', large: null },
  };

  it('original language: not translated; other language: translated; missing: English', () => {
    expect(toListingCard(doc, { lang: 'ru' })).toMatchObject({ title: 'Вилла', lang: 'ru', translated: false });
    expect(toListingCard(doc, { lang: 'en' })).toMatchObject({ title: 'Villa', lang: 'en', translated: true });
    expect(toListingCard(doc, { lang: 'th' })).toMatchObject({ title: 'Villa', lang: 'en', translated: true });
    expect(toListingCard(doc, { lang: 'ru' }).place.name).toBe('Ката');
  });

  it('is_favorite only when signed in; distance_m only with near; large may be null', () => {
    const anon = toListingCard(doc, { lang: 'en' });
    expect(anon).not.toHaveProperty('is_favorite');
    expect(anon).not.toHaveProperty('distance_m');
    expect(anon.photo).toEqual({ thumb: 't', medium: 'm', large: null });
    expect(toListingCard(doc, { lang: 'en', favorites: new Set([5]) }).is_favorite).toBe(true);
    expect(toListingCard(doc, { lang: 'en', favorites: new Set() }).is_favorite).toBe(false);
    expect(toListingCard(doc, { lang: 'en', near: { lat: 7.8, lon: 98.3 } }).distance_m).toBe(0);
  });

  it('city_only: no point, no distance', () => {
    const card = toListingCard({ ...doc, location: null }, { lang: 'en', near: { lat: 7.8, lon: 98.3 } });
    expect(card.point).toBeNull();
    expect(card).not.toHaveProperty('distance_m');
  });
});
