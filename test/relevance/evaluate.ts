import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { grade, type Catalog, type Predicate } from './facts.ts';

/**
 * The relevance suite (README.md): judged queries (judgments/*.json, guest intents as predicates
 * over the catalog's facts) asked through the real feed (`GET /v1/search/listings`) and the
 * events list (`GET /v1/events/upcoming`), scored per half (tuning, held-out), per language and
 * per query shape. Used by `npm run relevance` and by the CI guard test.
 */

export const RELEVANCE_DIR = import.meta.dirname;
export const CATALOG_FILE = path.join(RELEVANCE_DIR, 'catalog.ndjson');
export const BASELINE_FILE = path.join(RELEVANCE_DIR, 'baseline.json');
export const HALVES = ['tuning', 'held-out'] as const;
export type Half = (typeof HALVES)[number];
export const LANGS = ['en', 'ru', 'th', 'zh-Hans'] as const;
const K = 10;

export interface JudgedQuery {
  id: string;
  lang: (typeof LANGS)[number];
  q: string;
  target?: 'listings' | 'events';
  /** Query shapes; the first is the main one. */
  tags: string[];
  params?: Record<string, string>;
  grade2: Predicate;
  grade1?: Predicate;
  note?: string;
  /** Which file it came from (set when loaded). */
  half: Half;
}

export interface QueryOutcome {
  query: JudgedQuery;
  /** external_id → grade of every record graded 1 or 2. */
  graded: Map<string, number>;
  /** The first ten (listings) or the whole answer (events), as external ids. */
  returned: string[];
  /** Listings: nDCG@10 and P@10 (answerable queries only). */
  ndcg?: number;
  p10?: number;
  /** Events: precision and recall of the whole answer (answerable queries only). */
  precision?: number;
  recall?: number;
  /** Words of `q` the answer says no result has. */
  unmatched: string[];
}

export interface Metrics {
  queries: number;
  answerable: number;
  unanswerable: number;
  /** Listings queries; null when the group has none answerable. */
  ndcg10: number | null;
  p10: number | null;
  /** Events queries: mean precision and recall of the whole answer. */
  events_precision: number | null;
  events_recall: number | null;
  /** Share of answerable queries answered with nothing. */
  empty_rate: number | null;
  /** Share of unanswerable queries answered with anything. */
  noise_rate: number | null;
}

export interface Report {
  /** `<half>/<group>`: group is a language, `events`, `tag:<shape>` or `all`. */
  groups: Record<string, Metrics>;
  outcomes: QueryOutcome[];
}

/** The recorded level per engine, then per `<half>/<group>` of the language rows and `events`. */
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
  const out: JudgedQuery[] = [];
  for (const half of HALVES) {
    const raw = JSON.parse(await readFile(path.join(RELEVANCE_DIR, 'judgments', `${half}.json`), 'utf8')) as {
      queries: Array<Omit<JudgedQuery, 'half'>>;
    };
    for (const q of raw.queries) out.push({ ...q, half });
  }
  return out;
}

/** nDCG@10 with gains 2^grade − 1; the ideal ranking is every graded record, best grades first. */
export function ndcgAt(returned: string[], graded: Map<string, number>, k = K): number {
  const gain = (g: number) => 2 ** g - 1;
  const dcg = returned.slice(0, k).reduce((s, id, i) => s + gain(graded.get(id) ?? 0) / Math.log2(i + 2), 0);
  const ideal = [...graded.values()]
    .sort((a, b) => b - a)
    .slice(0, k)
    .reduce((s, g, i) => s + gain(g) / Math.log2(i + 2), 0);
  return ideal === 0 ? 0 : dcg / ideal;
}

/** Graded (≥ 1) results among the first ten, over how many could be there: min(10, graded). */
export function precisionAt(returned: string[], graded: Map<string, number>, k = K): number {
  const hits = returned.slice(0, k).filter((id) => (graded.get(id) ?? 0) > 0).length;
  return graded.size ? hits / Math.min(k, graded.size) : 0;
}

const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null);
const round = (x: number | null) => (x === null ? null : Math.round(x * 1000) / 1000);
const share = (xs: boolean[]) => (xs.length ? xs.filter(Boolean).length / xs.length : null);

export function summarize(outcomes: QueryOutcome[]): Metrics {
  const answerable = outcomes.filter((o) => o.graded.size > 0);
  const unanswerable = outcomes.filter((o) => o.graded.size === 0);
  const isEvents = (o: QueryOutcome) => o.query.target === 'events';
  return {
    queries: outcomes.length,
    answerable: answerable.length,
    unanswerable: unanswerable.length,
    ndcg10: round(mean(answerable.filter((o) => !isEvents(o)).map((o) => o.ndcg!))),
    p10: round(mean(answerable.filter((o) => !isEvents(o)).map((o) => o.p10!))),
    events_precision: round(mean(answerable.filter(isEvents).map((o) => o.precision!))),
    events_recall: round(mean(answerable.filter(isEvents).map((o) => o.recall!))),
    empty_rate: round(share(answerable.map((o) => o.returned.length === 0))),
    noise_rate: round(share(unanswerable.map((o) => o.returned.length > 0))),
  };
}

/** Every group of the report: per half, the languages (listings), events, each shape, all. */
export function groupOutcomes(outcomes: QueryOutcome[]): Record<string, Metrics> {
  const groups: Record<string, Metrics> = {};
  for (const half of HALVES) {
    const mine = outcomes.filter((o) => o.query.half === half);
    const listings = mine.filter((o) => o.query.target !== 'events');
    for (const lang of LANGS) groups[`${half}/${lang}`] = summarize(listings.filter((o) => o.query.lang === lang));
    groups[`${half}/listings`] = summarize(listings);
    groups[`${half}/events`] = summarize(mine.filter((o) => o.query.target === 'events'));
    const tags = [...new Set(mine.flatMap((o) => o.query.tags))].sort();
    for (const tag of tags) groups[`${half}/tag:${tag}`] = summarize(mine.filter((o) => o.query.tags.includes(tag)));
  }
  return groups;
}

export interface Ids {
  /** Card id → the catalog's external id (cards do not carry it). */
  listing(id: number): string | undefined;
  event(id: number): string | undefined;
}

/** Asks every judged query of the API at `baseUrl` and grades the answers against `catalog`. */
export async function evaluate(baseUrl: string, ids: Ids, catalog: Catalog, queries: JudgedQuery[]): Promise<Report> {
  const get = async <T>(route: string, params: Record<string, string>): Promise<T> => {
    const res = await fetch(`${baseUrl}${route}?${new URLSearchParams(params)}`);
    if (res.status !== 200) {
      throw new Error(`${route} ${JSON.stringify(params)} answered ${res.status}: ${await res.text()}`);
    }
    return (await res.json()) as T;
  };
  const outcomes: QueryOutcome[] = [];
  for (const query of queries) {
    const events = query.target === 'events';
    const graded = grade(events ? catalog.events : catalog.listings, query.grade2, query.grade1);
    const base = { ...query.params, q: query.q, lang: query.lang };
    if (events) {
      type Page = { items: Array<{ id: number }>; next_cursor: string | null; unmatched_terms?: string[] };
      const whole: string[] = [];
      let unmatched: string[] = [];
      let cursor: string | null = null;
      do {
        const page: Page = await get<Page>('/v1/events/upcoming', {
          days: '180',
          ...base,
          limit: '100',
          ...(cursor ? { cursor } : {}),
        });
        whole.push(...page.items.map((i) => ids.event(i.id) ?? `#${i.id}`));
        unmatched = page.unmatched_terms ?? [];
        cursor = page.next_cursor;
      } while (cursor);
      // Precision: acceptable (grade ≥ 1) among the whole answer; recall: of what was asked for
      // (grade 2; grade 1 when nothing is graded 2): a list is not ranked, so an exact answer that
      // leaves out the merely acceptable is complete.
      const acceptable = whole.filter((id) => (graded.get(id) ?? 0) > 0).length;
      const top = Math.max(0, ...graded.values());
      const asked = [...graded.values()].filter((g) => g === top).length;
      const found = whole.filter((id) => graded.get(id) === top).length;
      outcomes.push({
        query,
        graded,
        returned: whole,
        unmatched,
        ...(graded.size ? { precision: whole.length ? acceptable / whole.length : 0, recall: found / asked } : {}),
      });
    } else {
      const body = await get<{ items: Array<{ id: number }>; unmatched_terms?: string[] }>('/v1/search/listings', {
        ...base,
        limit: String(K),
      });
      const returned = body.items.map((i) => ids.listing(i.id) ?? `#${i.id}`);
      outcomes.push({
        query,
        graded,
        returned,
        unmatched: body.unmatched_terms ?? [],
        ...(graded.size ? { ndcg: ndcgAt(returned, graded), p10: precisionAt(returned, graded) } : {}),
      });
    }
  }
  return { groups: groupOutcomes(outcomes), outcomes };
}

const fmt = (x: number | null) => (x === null ? '—' : x.toFixed(3));

/**
 * The report as text. `details` lists each query of the **tuning** half that is not perfect; the
 * held-out half is only ever shown as totals (it must not be looked at while tuning).
 */
export function formatReport(report: Report, opts: { details?: boolean; tags?: boolean } = {}): string {
  const lines: string[] = [];
  if (opts.details) {
    for (const o of report.outcomes.filter((x) => x.query.half === 'tuning')) {
      const q = o.query;
      const answerable = o.graded.size > 0;
      const perfect = answerable
        ? o.query.target === 'events'
          ? o.precision === 1 && o.recall === 1
          : o.ndcg === 1
        : o.returned.length === 0;
      if (perfect && !o.unmatched.length) continue;
      const score = !answerable
        ? `NOISE(${o.returned.length})`
        : q.target === 'events'
          ? `P=${o.precision!.toFixed(2)} R=${o.recall!.toFixed(2)}`
          : o.returned.length
            ? `nDCG=${o.ndcg!.toFixed(2)} P@10=${o.p10!.toFixed(2)}`
            : 'EMPTY';
      const unmatched = o.unmatched.length ? ` unmatched: ${o.unmatched.join(', ')}` : '';
      lines.push(
        `${q.id.padEnd(12)} ${q.lang.padEnd(7)} ${JSON.stringify(q.q).padEnd(34)} ${score.padEnd(22)} [${q.tags.join(',')}] graded ${o.graded.size}${unmatched}`,
      );
      if (q.note) lines.push(`             ${q.note}`);
      if (answerable && o.returned.length) {
        lines.push(
          `             got: ${o.returned
            .slice(0, 10)
            .map((id) => `${id}(${o.graded.get(id) ?? 0})`)
            .join(' ')}`,
        );
      }
    }
    lines.push('');
  }
  const head = ['group', 'queries', 'nDCG@10', 'P@10', 'events P', 'events R', 'empty', 'noise'];
  lines.push(head.map((h, i) => h.padEnd(i === 0 ? 30 : 10)).join(''));
  for (const [group, m] of Object.entries(report.groups)) {
    if (!opts.tags && group.includes('/tag:')) continue;
    lines.push(
      [
        group.padEnd(30),
        `${m.queries}`.padEnd(10),
        fmt(m.ndcg10).padEnd(10),
        fmt(m.p10).padEnd(10),
        fmt(m.events_precision).padEnd(10),
        fmt(m.events_recall).padEnd(10),
        fmt(m.empty_rate).padEnd(10),
        fmt(m.noise_rate).padEnd(10),
      ].join(''),
    );
  }
  return lines.join('\n');
}
