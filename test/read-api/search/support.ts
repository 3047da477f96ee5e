import { readFile } from 'node:fs/promises';
import path from 'node:path';
import pino from 'pino';
import { importCatalogText, reindexAll } from '@guest/indexer';
import type { TestApp } from '../../support/test-app.ts';
import { eventually } from '../../support/eventually.ts';
import { http } from '../../support/http.ts';

export const FIXTURES = path.join(import.meta.dirname, '..', '..', 'fixtures', 'search');

/**
 * Loads an NDJSON catalog into this test's own database and builds its own indices with the
 * indexer's import and full rebuild: the read API then sees exactly what production would.
 */
export async function loadCatalog(t: TestApp, file: string): Promise<void> {
  await loadCatalogText(t, await readFile(path.isAbsolute(file) ? file : path.join(FIXTURES, file), 'utf8'));
}

/** `loadCatalog` for NDJSON a test builds itself. */
export async function loadCatalogText(t: TestApp, text: string): Promise<void> {
  await importCatalogText(t.runtime.database, text);
  await reindexAll(t.runtime, pino({ level: 'silent' }), { absorbOutbox: true, oldIndexGraceMs: 0 });
}

/** GET a search route with query parameters (arrays become repeated parameters). */
export async function search(
  t: TestApp,
  route: string,
  params: Record<string, string | number | boolean | Array<string | number>> = {},
  opts: { headers?: Record<string, string>; token?: string } = {},
) {
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (Array.isArray(v)) for (const x of v) qs.append(k, String(x));
    else qs.append(k, String(v));
  }
  const s = qs.toString();
  return http(t.url, 'GET', `/v1/search/${route}${s ? `?${s}` : ''}`, opts);
}

/** Every card of the feed for these filters, following `next_cursor` to the end. */
export async function allPages(
  t: TestApp,
  params: Record<string, string | number | boolean | Array<string | number>>,
  opts: { headers?: Record<string, string>; token?: string } = {},
): Promise<any[]> {
  const items: any[] = [];
  let cursor: string | null = null;
  for (let i = 0; i < 1000; i++) {
    const res = await search(t, 'listings', cursor ? { ...params, cursor } : params, opts);
    if (res.status !== 200) throw new Error(`feed answered ${res.status}: ${res.text.slice(0, 300)}`);
    items.push(...res.body.items);
    if (!res.body.has_more) {
      if (res.body.next_cursor !== null) throw new Error('last page carries a next_cursor');
      return items;
    }
    cursor = res.body.next_cursor;
  }
  throw new Error('feed never ended');
}

/**
 * The cards of a whole feed that match `q` exactly. Related cards (`related: true`, added when
 * few match exactly) must all come after them: checked here, so every caller checks it.
 */
export function exactCards<T extends { related?: boolean }>(items: T[]): T[] {
  const firstRelated = items.findIndex((i) => i.related);
  const exact = items.filter((i) => !i.related);
  if (firstRelated >= 0 && items.slice(firstRelated).some((i) => !i.related)) {
    throw new Error('an exact match comes after a related card');
  }
  return exact;
}

/** Fixture titles start with a code (S1, E2, ...): the codes of a list of cards, sorted. */
export function codes(items: Array<{ title: string }>): string[] {
  return items.map((i) => titleCode(i.title)).sort();
}

const CODE_OF_TITLE: Record<string, string> = {
  'Kata sea-view villa': 'S1',
  'Karon family apartment': 'S2',
  'Patong party hostel room': 'S3',
  'Sukhumvit city condo': 'S4',
  'Kata reef diving trip': 'E1',
  'Thai cooking class in Patong': 'E2',
  'Private sunset yacht Karon': 'E3',
  'Kata Thai massage at home': 'V1',
  'Patong photo session': 'V2',
  'Kata scooter rental': 'T1',
  'Karon jeep with driver': 'T2',
  'Patong airport transfer van': 'T3',
  'Kata vegan cafe': 'F1',
  'Patong halal seafood restaurant': 'F2',
  'Karon beach bar': 'F3',
  'Kata draft villa': 'D1',
};

export function titleCode(title: string): string {
  const c = CODE_OF_TITLE[title];
  if (!c) throw new Error(`unknown fixture title "${title}" (ask in English, lang=en)`);
  return c;
}

/** The text of `/metrics` of the server at `url`. */
export async function metricsText(url: string): Promise<string> {
  const res = await http(url, 'GET', '/metrics');
  if (res.status !== 200) throw new Error(`/metrics answered ${res.status}`);
  return res.text;
}

/** One sample of a metrics text (`labels` as written, e.g. `{outcome="hit"}`); null when absent. */
export function metric(text: string, name: string, labels = ''): number | null {
  const line = text.split('\n').find((l) => l.startsWith(`${name}${labels} `));
  return line ? Number(line.split(' ')[1]) : null;
}

/** Waits until the search caches of the server at `url` have read the index generation. */
export async function generationKnown(url: string): Promise<void> {
  await eventually('the cache knows the index generation', async () => {
    const age = metric(await metricsText(url), 'search_cache_generation_age_seconds');
    return age !== null && age >= 0;
  });
}
