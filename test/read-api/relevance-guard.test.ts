import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readApi } from '@guest/read-api';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { loadCatalog } from './search/support.ts';
import {
  BASELINE_FILE,
  CATALOG_FILE,
  evaluate,
  formatReport,
  loadJudgments,
  type Metrics,
  type Report,
} from '../relevance/evaluate.ts';

/**
 * Regression guard of the relevance suite (test/relevance): the judged queries over the fixed
 * catalog must score at least the level recorded in test/relevance/baseline.json, per language.
 * Not a timed test: only ranking quality is compared. After a deliberate improvement, record the
 * new level with `npm run relevance -- --write-baseline`.
 */
let t: TestApp;
let report: Report;
let baseline: Record<string, Metrics>;
beforeAll(async () => {
  t = await startTestApp({ apps: [readApi], config: { RATE_LIMIT_ADDRESS_PER_MIN: 100_000 } });
  await loadCatalog(t, CATALOG_FILE);
  const { rows } = await t.sql.query<{ id: number; external_id: string }>('select id, external_id from listings');
  const ids = new Map(rows.map((r) => [Number(r.id), r.external_id]));
  report = await evaluate(t.url, (id) => ids.get(id), await loadJudgments());
  baseline = JSON.parse(await readFile(BASELINE_FILE, 'utf8'));
});
afterAll(async () => t?.close());

const EPS = 1e-9;

describe('relevance does not drop below the baseline', () => {
  it('has at least 60 graded queries in all four languages, besides some that must return nothing', async () => {
    const judgments = await loadJudgments();
    const graded = judgments.filter((q) => q.intent !== 'none');
    expect(judgments.length).toBeGreaterThanOrEqual(60);
    // Must-be-empty queries carry no relevance grades: they do not count towards the 60.
    expect(graded.length, 'graded queries (must-be-empty ones not counted)').toBeGreaterThanOrEqual(60);
    for (const q of graded) expect(Object.keys(q.relevant).length, `"${q.q}" has no graded listing`).toBeGreaterThan(0);
    for (const lang of ['en', 'ru', 'th', 'zh-Hans']) expect(graded.some((q) => q.lang === lang)).toBe(true);
    expect(judgments.filter((q) => q.intent === 'none').length).toBeGreaterThan(0);
  });

  it('judges no fewer queries per language than the baseline was measured on', () => {
    // The metrics are means: dropping a hard query would raise them without any improvement.
    for (const lang of ['en', 'ru', 'th', 'zh-Hans', 'all']) {
      expect(report.byLanguage[lang]!.queries, `${lang}: judged queries`).toBeGreaterThanOrEqual(
        baseline[lang]!.queries,
      );
    }
  });

  for (const lang of ['en', 'ru', 'th', 'zh-Hans', 'all']) {
    it(`${lang}: nDCG@10 and MRR at least, zero-result and noise rates at most the baseline`, () => {
      const now = report.byLanguage[lang]!;
      const was = baseline[lang]!;
      const explain = `\n${formatReport(report, true)}`;
      expect(now.ndcg10 + EPS, `nDCG@10 dropped${explain}`).toBeGreaterThanOrEqual(was.ndcg10);
      expect(now.mrr + EPS, `MRR dropped${explain}`).toBeGreaterThanOrEqual(was.mrr);
      expect(now.zero_result_rate - EPS, `more queries find nothing${explain}`).toBeLessThanOrEqual(
        was.zero_result_rate,
      );
      expect(now.noise_rate - EPS, `queries that must find nothing find something${explain}`).toBeLessThanOrEqual(
        was.noise_rate,
      );
    });
  }
});
