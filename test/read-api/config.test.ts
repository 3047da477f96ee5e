import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '@guest/config';
import { importCatalogText } from '@guest/indexer';
import { readApi } from '@guest/read-api';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { http } from '../support/http.ts';

const fixture = () => readFile(path.join(repoRoot, 'test/fixtures/catalog/small.ndjson'), 'utf8');

// Near Kata beach on Phuket: the nearest place centre is the district Kata, whose region is Phuket.
const KATA = { MAP_START_LAT: 7.83, MAP_START_LON: 98.31, MAP_START_ZOOM: 11 };

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({
    apps: [readApi],
    config: {
      ...KATA,
      MAP_MIN_ZOOM: 3,
      MAP_MAX_ZOOM: 17,
      PUBLIC_BASE_URL: 'https://guest.example.test',
      CURRENCIES: 'THB,USD',
      ONLINE_PAYMENTS_ENABLED: true,
      SERVICE_FEE_PERCENT: 7.5,
      ASSISTANT_ENABLED: true,
      MAX_UPLOAD_MB: 12,
      SEARCH_LIMIT_DEFAULT: 24,
      MAP_TILE_FORMAT: 'pbf',
      MAP_RELIEF_FORMAT: 'webp',
    },
  });
});
afterAll(async () => t?.close());

describe('GET /v1/config', () => {
  it('carries all twelve fields, each from the configuration, with an empty catalog', async () => {
    const res = await http(t.url, 'GET', '/v1/config');
    expect(res.status).toBe(200);
    const c = t.config;
    expect(res.body).toEqual({
      map: {
        style_url: 'https://guest.example.test/v1/map/style.json',
        tilejson_url: 'https://guest.example.test/v1/map/tiles.json',
        tiles_url: 'https://guest.example.test/v1/map/tiles/{z}/{x}/{y}.pbf',
        relief_url: 'https://guest.example.test/v1/map/relief/{z}/{x}/{y}.webp',
        glyphs_url: 'https://guest.example.test/v1/map/fonts/{fontstack}/{range}.pbf',
        sprite_url: 'https://guest.example.test/v1/map/sprites/sprite',
        start: { lat: 7.83, lon: 98.31, zoom: 11 },
        min_zoom: 3,
        max_zoom: 17,
      },
      languages: ['en', 'ru', 'th', 'zh-Hans'],
      default_language: 'en',
      currencies: ['THB', 'USD'], // the catalog has no currencies yet: the CURRENCIES setting
      base_currency: 'THB', // the catalog's base currency
      search: {
        limit_default: 24,
        limit_max: c.SEARCH_LIMIT_MAX,
        map_max_points: c.MAP_MAX_POINTS,
        calendar_days_default: c.CALENDAR_DAYS_DEFAULT,
        calendar_days_max: c.CALENDAR_DAYS_MAX,
        upcoming_days_default: 30,
        schedule_horizon_days: 180,
      },
      online_payments_enabled: true,
      service_fee_percent: 7.5,
      max_upload_mb: 12,
      review_window_days: 14,
      assistant_enabled: true,
      region: null, // no places yet
    });
    expect(Object.keys(res.body)).toHaveLength(12);
    expect(res.headers.get('cache-control')).toBe(`public, max-age=${c.REFERENCE_CACHE_MAX_AGE_S}`);
  });

  it('lists the catalog currencies and finds the region at the map start once the catalog has them', async () => {
    await importCatalogText(t.runtime.database, await fixture());
    const res = await http(t.url, 'GET', '/v1/config');
    expect(res.body.currencies).toEqual(['EUR', 'THB', 'USD']);
    const { rows } = await t.sql.query(`select id from places where slug = 'phuket'`);
    expect(res.body.region).toEqual({
      id: rows[0].id,
      slug: 'phuket',
      name: 'Phuket',
      timezone: 'Asia/Bangkok',
      currency: 'THB',
      center: { lat: 7.8804, lon: 98.3923 },
    });
  });

  it('names the region in the request language', async () => {
    const ru = await http(t.url, 'GET', '/v1/config', { headers: { 'accept-language': 'ru' } });
    expect(ru.body.region.name).toBe('Пхукет');
    expect(ru.headers.get('vary')).toContain('Accept-Language');
    const zh = await http(t.url, 'GET', '/v1/config?lang=zh-Hans');
    expect(zh.body.region.name).toBe('普吉');
  });
});

describe('GET /v1/config: the region at other start points', () => {
  async function regionFor(lat: number, lon: number, lang = 'en') {
    const app = await startTestApp({ apps: [readApi], config: { MAP_START_LAT: lat, MAP_START_LON: lon } });
    try {
      await importCatalogText(app.runtime.database, await fixture());
      return (await http(app.url, 'GET', `/v1/config?lang=${lang}`)).body.region;
    } finally {
      await app.close();
    }
  }

  it('is the region itself when its own centre is the nearest place', async () => {
    const region = await regionFor(52.5, 13.4, 'th');
    expect(region).toMatchObject({ slug: 'berlin-test', timezone: 'Europe/Berlin', currency: 'EUR' });
    expect(region.name).toBe('Berlin (test zone)'); // no Thai name: English
  });

  it('is null when no place of the catalog is near the start point', async () => {
    expect(await regionFor(-33.86, 151.2)).toBeNull();
  });
});

describe('GET /v1/config: settings checked at start', () => {
  it('refuses to start when the start zoom is outside the zoom range', async () => {
    await expect(startTestApp({ apps: [readApi], config: { MAP_START_ZOOM: 20, MAP_MAX_ZOOM: 18 } })).rejects.toThrow(
      /MAP_START_ZOOM/,
    );
  });

  it('refuses to start with a malformed currency list', async () => {
    await expect(startTestApp({ apps: [readApi], config: { CURRENCIES: 'THB,usd' } })).rejects.toThrow(/CURRENCIES/);
  });
});

describe('OpenAPI', () => {
  it('documents ConfigResponse with its twelve fields and the named inner shapes', async () => {
    const doc = (await http(t.url, 'GET', '/v1/openapi.json')).body;
    const schemas = doc.components.schemas;
    expect(Object.keys(schemas.ConfigResponse.properties).sort()).toEqual(
      [
        'map',
        'languages',
        'default_language',
        'currencies',
        'base_currency',
        'search',
        'online_payments_enabled',
        'service_fee_percent',
        'max_upload_mb',
        'review_window_days',
        'assistant_enabled',
        'region',
      ].sort(),
    );
    expect(Object.keys(schemas)).toEqual(
      expect.arrayContaining(['MapConfig', 'MapStartView', 'SearchLimits', 'RegionInfo']),
    );
  });
});
