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

describe('GET /v1/currencies', () => {
  it('is an empty list while the catalog has no currencies', async () => {
    const res = await http(t.url, 'GET', '/v1/currencies');
    expect(res.status).toBe(200);
    expect(res.body).toEqual([]);
  });

  it('lists the imported currencies by code, named in the request language with English filling gaps', async () => {
    await importCatalogText(t.runtime.database, await fixture());
    const en = await http(t.url, 'GET', '/v1/currencies');
    expect(en.body).toEqual([
      { code: 'EUR', name: 'Euro', symbol: '€', minor_units: 2 },
      { code: 'THB', name: 'Thai baht', symbol: '฿', minor_units: 2 },
      { code: 'USD', name: 'US dollar', symbol: '$', minor_units: 2 },
    ]);
    const ru = await http(t.url, 'GET', '/v1/currencies', { headers: { 'accept-language': 'ru' } });
    expect(ru.body.map((c: { name: string }) => c.name)).toEqual(['Евро', 'Тайский бат', 'Доллар США']);
    const th = await http(t.url, 'GET', '/v1/currencies?lang=th');
    expect(th.body.map((c: { name: string }) => c.name)).toEqual(['Euro', 'Thai baht', 'US dollar']);
    expect(ru.headers.get('vary')).toContain('Accept-Language');
  });

  it('reflects a currency added by a later import', async () => {
    await importCatalogText(
      t.runtime.database,
      '{"type":"currency","code":"JPY","name":{"en":"Japanese yen","zh-Hans":"日元"},"minor_units":0}\n',
    );
    const res = await http(t.url, 'GET', '/v1/currencies?lang=zh-Hans');
    expect(res.body.find((c: { code: string }) => c.code === 'JPY')).toEqual({
      code: 'JPY',
      name: '日元',
      symbol: null,
      minor_units: 0,
    });
  });

  it('is documented as an array of CurrencyResponse', async () => {
    const doc = (await http(t.url, 'GET', '/v1/openapi.json')).body;
    expect(doc.components.schemas.CurrencyResponse.required).toEqual(['code', 'name', 'symbol', 'minor_units']);
    expect(doc.paths['/v1/currencies'].get.responses['200'].content['application/json'].schema).toMatchObject({
      type: 'array',
    });
  });
});
