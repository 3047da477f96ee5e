import { readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCatalogNdjson } from '@guest/indexer';
import { readApi } from '@guest/read-api';
import { demoNdjsonLines } from '../../indexer/src/demo/load-demo.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { expectEnvelope, http } from '../support/http.ts';
import { loadCatalogText } from './search/support.ts';

/**
 * Issue 35 point 3: the demo catalog's photos are pictures the API makes and serves itself, so
 * a demo without internet shows them: cards carry absolute URLs of the API's origin, each size
 * is an image of the spec's width, drawn once and kept on disk, the same bytes every time. Photos
 * of an image host stay as the catalog gives them.
 */
const demo = { listings: 60, events: 0, seed: 11, today: '2026-11-21' };
/** A listing whose photo lives on an image host, beside the demo. */
const HOSTED = JSON.stringify({
  type: 'listing',
  external_id: 'HOSTED-1',
  kind: 'stay',
  status: 'published',
  title: { en: 'Hosted photo villa' },
  original_lang: 'en',
  place: 'DEMO-P-kata',
  location: { lat: 7.82, lon: 98.3, mode: 'exact' },
  price: { amount_minor: 100000, currency: 'THB', unit: 'night' },
  photos: [{ thumb: 'https://img.example/H1/480.jpg', medium: 'https://img.example/H1/1600.jpg', large: null }],
  created_at: '2026-03-01T10:00:00Z',
  stay: {
    property_type: 'villa',
    room_type: 'entire_place',
    bedrooms: 1,
    beds: 1,
    bathrooms: 1,
    max_guests: 2,
    beach_distance_m: null,
    pets_allowed: false,
    smoking_allowed: false,
    children_allowed: true,
    parties_allowed: false,
    long_stay: false,
  },
});

let t: TestApp;
let cards: Array<{ id: number; kind: string; title: string; photo: Photo | null }> = [];
type Photo = { thumb: string; medium: string; large: string | null };

beforeAll(async () => {
  t = await startTestApp({ apps: [readApi] });
  await loadCatalogText(t, [...demoNdjsonLines(demo), HOSTED].join('\n'));
  const feed = await http(t.url, 'GET', '/v1/search/listings?limit=100&lang=en');
  expect(feed.status, feed.text).toBe(200);
  cards = feed.body.items;
}, 120_000);
afterAll(async () => t?.close());

const photoOf = (url: string) => fetch(url).then(async (r) => ({ res: r, bytes: Buffer.from(await r.arrayBuffer()) }));

describe('demo photos', () => {
  it('the demo catalog gives every listing photos of the API itself, large on some only', () => {
    const listings = parseCatalogNdjson([...demoNdjsonLines({ ...demo, listings: 400 })])
      .records.map((r) => r.record)
      .filter((r) => r.type === 'listing');
    const photos = listings.flatMap((l) => l.photos);
    expect(listings.every((l) => l.photos.length >= 1)).toBe(true);
    expect(photos.every((p) => p.thumb.startsWith('/demo-photos/v1/') && p.medium.startsWith('/demo-photos/v1/'))).toBe(
      true,
    );
    const large = photos.filter((p) => p.large !== null).length;
    expect(large).toBeGreaterThan(photos.length * 0.4);
    expect(large).toBeLessThan(photos.length * 0.8);
  });

  it('cards carry absolute URLs on the API origin; each size is a WebP of the spec width, cached for good', async () => {
    const demoCards = cards.filter((c) => c.title !== 'Hosted photo villa');
    expect(demoCards.length).toBeGreaterThan(30);
    for (const c of demoCards) {
      expect(c.photo?.thumb).toMatch(new RegExp(`^${t.url}/demo-photos/v1/${c.kind}-\\d{6}-0-480\\.webp$`));
      expect(c.photo?.medium).toBe(c.photo!.thumb.replace('-480.webp', '-1600.webp'));
    }
    const withLarge = demoCards.find((c) => c.photo?.large)!;
    expect(demoCards.some((c) => c.photo?.large === null)).toBe(true);
    for (const [url, width, height] of [
      [withLarge.photo!.thumb, 480, 320],
      [withLarge.photo!.medium, 1600, 1067],
      [withLarge.photo!.large!, 2560, 1707],
    ] as const) {
      const { res, bytes } = await photoOf(url);
      expect(res.status, url).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/webp');
      expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      const meta = await sharp(bytes).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['webp', width, height]);
    }
  });

  it('draws a picture once, keeps it on disk, and draws the very same bytes again when the disk lost it', async () => {
    const [a, b] = cards.filter((c) => c.photo?.thumb.includes('/demo-photos/')).slice(0, 2);
    const dir = path.join(t.config.DEMO_PHOTOS_DIR, 'v1');
    const first = await photoOf(a!.photo!.thumb);
    const name = path.basename(new URL(a!.photo!.thumb).pathname);
    expect(await readdir(dir)).toContain(name);
    const again = await photoOf(a!.photo!.thumb);
    expect(again.bytes.equals(first.bytes)).toBe(true);
    await rm(path.join(dir, name));
    const redrawn = await photoOf(a!.photo!.thumb);
    expect(redrawn.bytes.equals(first.bytes)).toBe(true);
    // Another listing, another picture.
    expect((await photoOf(b!.photo!.thumb)).bytes.equals(first.bytes)).toBe(false);
    // Many asking at once for a picture not made yet all get it.
    await rm(path.join(dir, name));
    const together = await Promise.all(Array.from({ length: 8 }, () => photoOf(a!.photo!.thumb)));
    for (const r of together) expect(r.bytes.equals(first.bytes)).toBe(true);
    expect((await readdir(dir)).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('keeps a photo of an image host as the catalog gives it', () => {
    const hosted = cards.find((c) => c.title === 'Hosted photo villa');
    expect(hosted?.photo).toEqual({
      thumb: 'https://img.example/H1/480.jpg',
      medium: 'https://img.example/H1/1600.jpg',
      large: null,
    });
  });

  it.each([
    'stay-000001-5-480.webp',
    'stay-000001-0-481.webp',
    'boat-000001-0-480.webp',
    'stay-1-0-480.webp',
    'stay-000001-0-480.png',
    '..%2F..%2Fsecrets.env',
  ])('answers 404 in the envelope for %s', async (name) => {
    expectEnvelope(await http(t.url, 'GET', `/demo-photos/v1/${name}`), 404, 'not_found');
  });
});
