import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readApi } from '@guest/read-api';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { loadCatalog } from './search/support.ts';
import {
  CATALOG_FILE,
  evaluate,
  formatReport,
  loadJudgments,
  readBaseline,
  type Baseline,
  type JudgedQuery,
  type Report,
} from '../relevance/evaluate.ts';

/**
 * Regression guard of the relevance suite (test/relevance): the judged queries over the demo
 * catalog must score at least the level recorded for this engine in test/relevance/baseline.json,
 * per language, and the two engines' nDCG@10 may differ by 0.01 at most. Not a timed test: only
 * ranking quality is compared. After a deliberate improvement, record the new level with
 * `npm run relevance -- --write-baseline` on both engines.
 */
const LANGS = ['en', 'ru', 'th', 'zh-Hans'] as const;
const ENGINES = ['opensearch', 'elasticsearch'] as const;
let t: TestApp;
let report: Report;
let baseline: Baseline;
let judgments: JudgedQuery[];
beforeAll(async () => {
  t = await startTestApp({ apps: [readApi], config: { RATE_LIMIT_ADDRESS_PER_MIN: 100_000 } });
  await loadCatalog(t, CATALOG_FILE);
  const { rows } = await t.sql.query<{ id: number; external_id: string }>('select id, external_id from listings');
  const ids = new Map(rows.map((r) => [Number(r.id), r.external_id]));
  judgments = await loadJudgments();
  report = await evaluate(t.url, (id) => ids.get(id), judgments);
  baseline = await readBaseline();
}, 300_000);
afterAll(async () => t?.close());

const EPS = 1e-9;

describe('the judged queries', () => {
  it('are at least 300, in all four languages, of every family', () => {
    expect(judgments.length).toBeGreaterThanOrEqual(300);
    for (const lang of LANGS) {
      const of = (intent: JudgedQuery['intent']) => judgments.filter((q) => q.lang === lang && q.intent === intent);
      expect(of('place').length, `${lang}: place queries`).toBeGreaterThanOrEqual(20);
      expect(of('topic').length, `${lang}: topic queries`).toBeGreaterThanOrEqual(20);
      expect(of('none').length, `${lang}: must-find-nothing queries`).toBeGreaterThan(0);
    }
    expect(judgments.filter((q) => q.lang === 'th' && q.intent === 'prefix').length).toBeGreaterThanOrEqual(10);
    for (const q of judgments.filter((x) => x.intent !== 'none')) {
      expect(Object.keys(q.relevant).length, `"${q.q}" has no graded answer`).toBeGreaterThan(0);
    }
  });
});

describe('relevance does not drop below the baseline', () => {
  it('has a baseline for both engines, within 0.01 nDCG@10 of each other per language', () => {
    for (const engine of ENGINES) expect(baseline[engine], `baseline of ${engine}`).toBeDefined();
    for (const lang of LANGS) {
      const [os, es] = ENGINES.map((e) => baseline[e]![lang]!.ndcg10);
      expect(Math.abs(os! - es!), `${lang}: nDCG@10 OpenSearch ${os} vs Elasticsearch ${es}`).toBeLessThanOrEqual(
        0.01 + EPS,
      );
    }
  });

  it('judges no fewer queries per language than the baseline was measured on', () => {
    // The metrics are means: dropping a hard query would raise them without any improvement.
    for (const lang of [...LANGS, 'all']) {
      expect(report.byLanguage[lang]!.queries, `${lang}: judged queries`).toBeGreaterThanOrEqual(
        baseline[t.config.SEARCH_ENGINE]![lang]!.queries,
      );
    }
  });

  for (const lang of [...LANGS, 'all']) {
    it(`${lang}: nDCG@10, MRR, place precision and recall at least, zero-result and noise rates at most the baseline`, () => {
      const now = report.byLanguage[lang]!;
      const engine = t.config.SEARCH_ENGINE;
      const was = baseline[engine]![lang]!;
      const explain = `\n${formatReport(report, true)}`;
      expect(now.ndcg10 + EPS, `nDCG@10 dropped${explain}`).toBeGreaterThanOrEqual(was.ndcg10);
      expect(now.mrr + EPS, `MRR dropped${explain}`).toBeGreaterThanOrEqual(was.mrr);
      expect(now.place_precision + EPS, `place queries find other places${explain}`).toBeGreaterThanOrEqual(
        was.place_precision,
      );
      expect(now.place_recall + EPS, `place queries miss listings of the place${explain}`).toBeGreaterThanOrEqual(
        was.place_recall,
      );
      expect(now.zero_result_rate - EPS, `more queries find nothing${explain}`).toBeLessThanOrEqual(
        was.zero_result_rate,
      );
      expect(now.noise_rate - EPS, `queries that must find nothing find something${explain}`).toBeLessThanOrEqual(
        was.noise_rate,
      );
      // The other engine's level, measured on the same judgments: within 0.01.
      for (const other of ENGINES.filter((e) => e !== engine)) {
        expect(now.ndcg10 + 0.01 + EPS, `nDCG@10 below ${other}'s by more than 0.01`).toBeGreaterThanOrEqual(
          baseline[other]![lang]!.ndcg10,
        );
      }
    });
  }
});
