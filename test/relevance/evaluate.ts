import { readFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * The relevance suite: judged queries (judgments.json, written by judge.ts from the catalog) over
 * the demo catalog (catalog.ndjson), asked through the real feed (`GET /v1/search/listings`) and,
 * for prefixes, suggest (`GET /v1/search/suggest`); scored per language with nDCG@10, MRR, the
 * zero-result rate and, for place queries, precision and recall of the whole answer (every page,
 * and the count must agree). Used by `npm run relevance` and by the CI guard test.
 */

export const RELEVANCE_DIR = import.meta.dirname;
export const CATALOG_FILE = path.join(RELEVANCE_DIR, 'catalog.ndjson');
export const BASELINE_FILE = path.join(RELEVANCE_DIR, 'baseline.json');
const K = 10;

export interface JudgedQuery {
  lang: 'en' | 'ru' | 'th' | 'zh-Hans';
  q: string;
  params: Record<string, string>;
  /**
   * `place`: the whole answer must be exactly the graded listings (a place and what lies below);
   * `topic`: ranked by grade; `prefix`: suggest must offer the place (`place:<slug>`);
   * `none`: the query must return nothing.
   */
  intent: 'place' | 'topic' | 'prefix' | 'none';
  note: string;
  /** external_id (or `place:<slug>`) → grade (2 = exactly what was asked for, 1 = acceptable). */
  relevant: Record<string, number>;
}

export interface QueryOutcome {
  query: JudgedQuery;
  returned: string[];
  ndcg: number | null;
  rr: number | null;
  /** Place queries: the whole answer against the expected set. */
  precision?: number;
  recall?: number;
}

export interface Metrics {
  queries: number;
  ndcg10: number;
  mrr: number;
  /** Share of queries that should find something but found nothing. */
  zero_result_rate: number;
  /** Share of must-be-empty queries that returned something. */
  noise_rate: number;
  /** Place queries: mean precision and recall of the whole answer. */
  place_queries: number;
  place_precision: number;
  place_recall: number;
}

export interface Report {
  byLanguage: Record<string, Metrics>;
  outcomes: QueryOutcome[];
}

/** The recorded level per engine (`opensearch`, `elasticsearch`), then per language. */
export type Baseline = Record<string, Record<string, Metrics>>;

export async function readBaseline(): Promise<Baseline> {
  try {
    return JSON.parse(await readFile(BASELINE_FILE, 'utf8')) as Baseline;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw err;
  }
}

export async function loadJudgments(): Promise<JudgedQuery[]> {
  const raw = JSON.parse(await readFile(path.join(RELEVANCE_DIR, 'judgments.json'), 'utf8'));
  return raw.queries as JudgedQuery[];
}

/** nDCG@10 with gains 2^grade − 1; the ideal ranking is every judged listing, best grades first. */
export function ndcgAt(returned: string[], relevant: Record<string, number>, k = K): number {
  const gain = (g: number) => 2 ** g - 1;
  const dcg = returned.slice(0, k).reduce((s, id, i) => s + gain(relevant[id] ?? 0) / Math.log2(i + 2), 0);
  const ideal = Object.values(relevant)
    .sort((a, b) => b - a)
    .slice(0, k)
    .reduce((s, g, i) => s + gain(g) / Math.log2(i + 2), 0);
  return ideal === 0 ? 0 : dcg / ideal;
}

/** Reciprocal rank of the first relevant result within the top 10 (0 when none). */
export function reciprocalRank(returned: string[], relevant: Record<string, number>, k = K): number {
  const i = returned.slice(0, k).findIndex((id) => (relevant[id] ?? 0) > 0);
  return i < 0 ? 0 : 1 / (i + 1);
}

export function summarize(outcomes: QueryOutcome[]): Metrics {
  const judged = outcomes.filter((o) => o.query.intent !== 'none');
  const empty = outcomes.filter((o) => o.query.intent === 'none');
  const places = outcomes.filter((o) => o.query.intent === 'place');
  const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
  const round = (x: number) => Math.round(x * 1000) / 1000;
  return {
    queries: outcomes.length,
    ndcg10: round(mean(judged.map((o) => o.ndcg ?? 0))),
    mrr: round(mean(judged.map((o) => o.rr ?? 0))),
    zero_result_rate: round(judged.length ? judged.filter((o) => !o.returned.length).length / judged.length : 0),
    noise_rate: round(empty.length ? empty.filter((o) => o.returned.length).length / empty.length : 0),
    place_queries: places.length,
    place_precision: round(places.length ? mean(places.map((o) => o.precision ?? 0)) : 1),
    place_recall: round(places.length ? mean(places.map((o) => o.recall ?? 0)) : 1),
  };
}

/**
 * Asks every judged query of the feed at `baseUrl`. `externalIdOf` maps card ids to the
 * catalog's external ids (cards do not carry them).
 */
export async function evaluate(
  baseUrl: string,
  externalIdOf: (id: number) => string | undefined,
  queries: JudgedQuery[],
): Promise<Report> {
  const outcomes: QueryOutcome[] = [];
  const get = async <T>(route: string, params: Record<string, string>): Promise<T> => {
    const res = await fetch(`${baseUrl}${route}?${new URLSearchParams(params)}`);
    if (res.status !== 200)
      throw new Error(`${route} ${JSON.stringify(params)} answered ${res.status}: ${await res.text()}`);
    return (await res.json()) as T;
  };
  for (const query of queries) {
    const judged = query.intent !== 'none';
    const base = { ...query.params, q: query.q, lang: query.lang };
    let returned: string[];
    const outcome: Partial<QueryOutcome> = {};
    if (query.intent === 'prefix') {
      const body = await get<{ places: Array<{ slug: string }> }>('/v1/search/suggest', base);
      returned = body.places.map((p) => `place:${p.slug}`);
    } else {
      type Page = { items: Array<{ id: number }>; next_cursor: string | null };
      const body = await get<Page>('/v1/search/listings', { ...base, limit: String(K) });
      returned = body.items.map((i) => externalIdOf(i.id) ?? `#${i.id}`);
      if (query.intent === 'place') {
        // The whole answer, every page, and the count of the same query must agree.
        const whole: string[] = [];
        let cursor: string | null = null;
        do {
          const page: Page = await get<Page>('/v1/search/listings', {
            ...base,
            limit: '100',
            ...(cursor ? { cursor } : {}),
          });
          whole.push(...page.items.map((i) => externalIdOf(i.id) ?? `#${i.id}`));
          cursor = page.next_cursor;
        } while (cursor);
        const { count } = await get<{ count: number }>('/v1/search/count', base);
        if (count !== whole.length) throw new Error(`"${query.q}": count ${count}, feed ${whole.length}`);
        const hit = whole.filter((id) => (query.relevant[id] ?? 0) > 0).length;
        outcome.precision = whole.length ? hit / whole.length : 0;
        outcome.recall = hit / Object.keys(query.relevant).length;
      }
    }
    outcomes.push({
      query,
      returned,
      ndcg: judged ? ndcgAt(returned, query.relevant) : null,
      rr: judged ? reciprocalRank(returned, query.relevant) : null,
      ...outcome,
    });
  }
  const byLanguage: Record<string, Metrics> = {};
  for (const lang of ['en', 'ru', 'th', 'zh-Hans']) {
    byLanguage[lang] = summarize(outcomes.filter((o) => o.query.lang === lang));
  }
  byLanguage.all = summarize(outcomes);
  return { byLanguage, outcomes };
}

export function formatReport(report: Report, details = false): string {
  const lines: string[] = [];
  if (details) {
    for (const o of report.outcomes) {
      const mark = o.query.intent === 'none' ? (o.returned.length ? 'NOISE' : 'ok') : `ndcg=${o.ndcg!.toFixed(2)}`;
      const pr = o.precision === undefined ? '' : ` p=${o.precision.toFixed(2)} r=${o.recall!.toFixed(2)}`;
      lines.push(
        `${o.query.lang.padEnd(7)} ${JSON.stringify(o.query.q).padEnd(26)} ${mark.padEnd(11)}${pr} ${o.query.note}`,
      );
      const imperfect = (o.ndcg ?? 1) < 1 || (o.precision ?? 1) < 1 || (o.recall ?? 1) < 1;
      if (o.query.intent !== 'none' && imperfect) lines.push(`        got: ${o.returned.join(', ') || '(nothing)'}`);
    }
    lines.push('');
  }
  const head = ['lang', 'queries', 'nDCG@10', 'MRR', 'zero-result', 'noise', 'place q', 'place P', 'place R'];
  lines.push(head.map((h) => h.padEnd(12)).join(''));
  for (const [lang, m] of Object.entries(report.byLanguage)) {
    lines.push(
      [
        lang,
        m.queries,
        m.ndcg10.toFixed(3),
        m.mrr.toFixed(3),
        m.zero_result_rate.toFixed(3),
        m.noise_rate.toFixed(3),
        m.place_queries,
        m.place_precision.toFixed(3),
        m.place_recall.toFixed(3),
      ]
        .map((v) => String(v).padEnd(12))
        .join(''),
    );
  }
  return lines.join('\n');
}
