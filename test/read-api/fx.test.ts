import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '@guest/config';
import { importCatalogText } from '@guest/indexer';
import { readApi } from '@guest/read-api';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { http } from '../support/http.ts';

const fixture = () => readFile(path.join(repoRoot, 'test/fixtures/catalog/small.ndjson'), 'utf8');

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ apps: [readApi] });
});
afterAll(async () => t?.close());

describe('GET /v1/fx/rates', () => {
  it('answers the base currency with no rates before any are imported', async () => {
    const res = await http(t.url, 'GET', '/v1/fx/rates');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ base: 'THB', date: null, fetched_at: null, source: null, rates: {} });
  });

  it('answers the imported rates of the base currency with their date, time and source', async () => {
    await importCatalogText(t.runtime.database, await fixture());
    const res = await http(t.url, 'GET', '/v1/fx/rates');
    expect(res.body).toEqual({
      base: 'THB',
      date: '2026-11-20',
      fetched_at: '2026-11-20T09:00:00.000Z',
      source: 'central bank',
      rates: { USD: 0.0281, EUR: 0.0262 },
    });
    expect(res.headers.get('cache-control')).toBe(`public, max-age=${t.config.REFERENCE_CACHE_MAX_AGE_S}`);
  });

  it('answers the latest day of the base currency, never an older day or another base', async () => {
    await importCatalogText(
      t.runtime.database,
      [
        '{"type":"currency","code":"CNY","name":{"en":"Chinese yuan"},"symbol":"¥","minor_units":2}',
        '{"type":"fx_rate","base":"THB","date":"2026-11-19","source":"old","rates":{"USD":0.03}}',
        '{"type":"fx_rate","base":"USD","date":"2026-11-22","source":"other base","rates":{"THB":35.6}}',
        '{"type":"fx_rate","base":"THB","date":"2026-11-21","rates":{"USD":0.0282,"EUR":0.0263,"CNY":0.2}}',
      ].join('\n'),
    );
    const res = await http(t.url, 'GET', '/v1/fx/rates');
    expect(res.body).toEqual({
      base: 'THB',
      date: '2026-11-21',
      fetched_at: null,
      source: null,
      rates: { USD: 0.0282, EUR: 0.0263, CNY: 0.2 },
    });
  });

  it('tells clients in the OpenAPI description that conversions are approximate', async () => {
    const doc = (await http(t.url, 'GET', '/v1/openapi.json')).body;
    expect(doc.paths['/v1/fx/rates'].get.description).toMatch(/approximate/);
    expect(doc.components.schemas.FxRatesResponse.description).toMatch(/approximate/);
    expect(doc.components.schemas.FxRatesResponse.required).toEqual(
      expect.arrayContaining(['base', 'date', 'fetched_at', 'source']),
    );
  });
});
