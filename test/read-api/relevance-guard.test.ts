import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readApi } from '@guest/read-api';
import { todayIn } from '@guest/catalog';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { loadCatalogText } from './search/support.ts';
import { CATALOG_DAY, suiteCatalogLines, suiteFacts } from '../relevance/catalog.ts';
import {
  CATALOG_FILE,
  evaluate,
  formatReport,
  HALVES,
  LANGS,
  loadJudgments,
  readBaseline,
  type Baseline,
  type JudgedQuery,
  type Metrics,
  type Report,
} from '../relevance/evaluate.ts';
import { EVENT_TYPOS } from '../relevance/event-typos.ts';

/**
 * Regression guard of the relevance suite (test/relevance/README.md): the judged queries (guest
 * intents as predicates over the catalog's facts, a tuning and a held-out half) must score at
 * least the level recorded for this engine in test/relevance/baseline.json, per half and
 * language, and for the events list. Not a timed test: only answer quality is compared. After a
 * deliberate improvement, record the new level with `npm run relevance -- --write-baseline` on
 * both engines.
 */
const ENGINES = ['opensearch', 'elasticsearch'] as const;
let t: TestApp;
let report: Report;
let baseline: Baseline;
let judgments: JudgedQuery[];
beforeAll(async () => {
  t = await startTestApp({ apps: [readApi], config: { RATE_LIMIT_ADDRESS_PER_MIN: 100_000 } });
  const today = todayIn('Asia/Bangkok', t.runtime.clock.now());
  const lines = suiteCatalogLines(today);
  await loadCatalogText(t, lines.join('\n'));
  const idsOf = async (table: string) => {
    const { rows } = await t.sql.query<{ id: number; external_id: string }>(`select id, external_id from ${table}`);
    return new Map(rows.map((r) => [Number(r.id), r.external_id]));
  };
  const [listings, events] = await Promise.all([idsOf('listings'), idsOf('events')]);
  judgments = await loadJudgments();
  report = await evaluate(
    t.url,
    { listing: (id) => listings.get(id), event: (id) => events.get(id) },
    suiteFacts(lines, today),
    judgments,
  );
  baseline = await readBaseline();
}, 300_000);
afterAll(async () => t?.close());

const EPS = 1e-9;
/**
 * The suite's catalog is made for the day it runs, so that events stay inside the horizon: which
 * occurrences fall in "this week" or "tonight" moves with the day. Listings do not move.
 */
const EVENTS_DAY_TOLERANCE = 0.05;

describe('the judgments', () => {
  it('are graded against the committed catalog, as the generator writes it', async () => {
    const committed = (await readFile(CATALOG_FILE, 'utf8')).trimEnd().split('\n');
    expect(committed).toEqual(suiteCatalogLines(CATALOG_DAY));
  });

  it('hold at least 400 listings queries of the shapes the suite promises, in both halves', () => {
    const listings = judgments.filter((q) => q.target !== 'events');
    expect(listings.length).toBeGreaterThanOrEqual(400);
    const shareOf = (tag: string) => listings.filter((q) => q.tags.includes(tag)).length / listings.length;
    expect(shareOf('attribute'), 'attribute intents').toBeGreaterThanOrEqual(0.25);
    expect(shareOf('extra_words'), 'words the catalog lacks').toBeGreaterThanOrEqual(0.15);
    expect(shareOf('none'), 'queries that must find nothing').toBeGreaterThanOrEqual(0.1);
    expect(shareOf('typo')).toBeGreaterThan(0);
    expect(shareOf('mixed_script')).toBeGreaterThan(0);
    for (const half of HALVES) {
      for (const lang of LANGS) {
        expect(
          listings.filter((q) => q.half === half && q.lang === lang).length,
          `${half} ${lang}`,
        ).toBeGreaterThanOrEqual(50);
      }
    }
    expect(new Set(judgments.map((q) => q.id)).size, 'ids are unique').toBe(judgments.length);
    expect(judgments.filter((q) => q.target === 'events').length).toBeGreaterThanOrEqual(40);
  });

  it('tag as `none` exactly the queries nothing in the catalog answers', () => {
    const wrong = report.outcomes
      .filter((o) => o.query.tags.includes('none') !== (o.graded.size === 0))
      .map((o) => `${o.query.half}:${o.query.id} (graded ${o.graded.size})`);
    expect(wrong).toEqual([]);
  });
});

describe('relevance does not drop below the baseline', () => {
  it('has a baseline for both engines', () => {
    for (const engine of ENGINES) expect(baseline[engine], `baseline of ${engine}`).toBeDefined();
  });

  const rows = HALVES.flatMap((half) => [...LANGS, 'events'].map((g) => `${half}/${g}`));
  for (const row of rows) {
    it(`${row}: nDCG@10, P@10, events precision and recall at least, empty and noise at most the baseline`, () => {
      const now = report.groups[row]!;
      const was: Metrics = baseline[t.config.SEARCH_ENGINE]![row]!;
      const explain = `\n${formatReport(report, { details: true })}`;
      const slack = row.endsWith('/events') ? EVENTS_DAY_TOLERANCE : EPS;
      // The metrics are means: dropping a hard query would raise them without any improvement.
      expect(now.queries, `${row}: judged queries`).toBeGreaterThanOrEqual(was.queries);
      const atLeast = (k: 'ndcg10' | 'p10' | 'events_precision' | 'events_recall') => {
        if (was[k] !== null)
          expect((now[k] ?? 0) + slack, `${row}: ${k} dropped${explain}`).toBeGreaterThanOrEqual(was[k]);
      };
      const atMost = (k: 'empty_rate' | 'noise_rate') => {
        if (was[k] !== null) expect((now[k] ?? 1) - slack, `${row}: ${k} rose${explain}`).toBeLessThanOrEqual(was[k]);
      };
      atLeast('ndcg10');
      atLeast('p10');
      atLeast('events_precision');
      atLeast('events_recall');
      atMost('empty_rate');
      atMost('noise_rate');
    });
  }
});

describe('event words misspelled as guests misspell them (test/relevance/event-typos.ts)', () => {
  it('each finds events of the kind it names, in every language', async () => {
    const missed: string[] = [];
    for (const { lang, q, stem } of EVENT_TYPOS) {
      const u = new URL('/v1/events/upcoming', t.url);
      u.search = new URLSearchParams({ q, lang, days: '180', limit: '100' }).toString();
      const res = await fetch(u);
      expect(res.status, `${lang} ${q}`).toBe(200);
      const body = (await res.json()) as { items: Array<{ slug: string }>; unmatched_terms: string[] };
      const found = body.items.filter((i) => i.slug.includes(stem)).length;
      if (!found)
        missed.push(
          `${lang} "${q}": ${body.items.length} events, none ${stem}; unmatched ${body.unmatched_terms.join(', ')}`,
        );
    }
    console.log(`event typos: ${EVENT_TYPOS.length - missed.length} of ${EVENT_TYPOS.length} found`);
    expect(missed).toEqual([]);
  });
});
