import { hash } from 'node:crypto';
import type { Dsl } from '@guest/search-engine';
import { CARD_SOURCE } from './cards.ts';
import type { Filters, Sort } from './params.ts';
import {
  buildListingQuery,
  hasText,
  intentsOf,
  type QueryContext,
  relaxedWordsAggregation,
  reportedWords,
} from './query.ts';
import { buildSort } from './sort.ts';
import type { RelatedQuery } from './related.ts';

/** Scope of feed cursors: a cursor of another list is refused. */
export const FEED_CURSOR_SCOPE = 'search.listings';

/** What a feed cursor carries: the sort values of the last card and the request it belongs to. */
export interface FeedCursor {
  /** `search_after`: sort values of the last card of the previous page (ends with the id). */
  a: unknown[];
  /** Fingerprint of the filters and sort; a cursor used with other filters is refused. */
  h: string;
  /** `r`: the list of the related reading of `q` (related.ts): exact matches, then related ones. */
  m?: 'r';
}

/**
 * Stable fingerprint of a request's filters and sort (key order does not matter). Keys are put in
 * code-unit order, which for these ASCII keys is the order `localeCompare` gave earlier cursors.
 */
export function requestFingerprint(filters: Filters, sort: Sort): string {
  const canonical = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(canonical);
    if (v && typeof v === 'object') {
      const out: Record<string, unknown> = {};
      for (const k of Object.keys(v).sort()) {
        const x = (v as Record<string, unknown>)[k];
        if (x !== undefined) out[k] = canonical(x);
      }
      return out;
    }
    return v;
  };
  return hash('sha256', JSON.stringify(canonical({ filters, sort })), 'base64url').slice(0, 16);
}

/** The order of a feed: the client's, or for `relevance` the one the intents of `q` ask for (cheap, best, near me). */
export function feedSort(filters: Filters, ctx: QueryContext, sort: Sort): Sort {
  return sort === 'relevance' ? (intentsOf(filters, ctx).sort ?? sort) : sort;
}

/** Name of the aggregation that counts each relaxed word of `q` over the whole answer. */
export const RELAXED_AGG = 'relaxed_words';

/**
 * One page of the feed: `limit + 1` hits, so `has_more` is known without counting; with relaxed
 * words in `q`, how many results have each (`RELAXED_AGG`, in the words' order).
 */
export function buildFeedRequest(
  filters: Filters,
  ctx: QueryContext,
  page: {
    sort: Sort;
    limit: number;
    searchAfter?: unknown[] | undefined;
    /** The related reading of `q`: exact matches first, then related ones. */
    related?: RelatedQuery | null;
    /** Count the matches up to this many (`total` of the answer), without costing a full count. */
    countUpTo?: number;
  },
): Dsl {
  const related = page.related;
  const order = feedSort(filters, ctx, page.sort);
  let query: Dsl;
  let sort: Dsl[];
  if (!related) {
    query = buildListingQuery(filters, ctx);
    sort = buildSort(order, { hasText: hasText(filters, ctx), near: filters.near });
  } else if (order === 'relevance') {
    query = related.query;
    sort = buildSort('relevance', { hasText: true });
  } else {
    // An order the intents ask for ("cheap guesthouse"): the exact matches first, then the related
    // ones, each part in that order (the cheapest guesthouses, then the cheapest other stays).
    query = { bool: { filter: [related.query], should: [{ constant_score: { filter: related.exact, boost: 1 } }] } };
    sort = [{ _score: { order: 'desc' } }, ...buildSort(order, { hasText: true, near: filters.near })];
  }
  const body: Dsl = {
    size: page.limit + 1,
    track_total_hits: page.countUpTo ?? false,
    _source: [...CARD_SOURCE],
    query,
    sort,
  };
  const aggs: Dsl = {};
  const relaxed = relaxedWordsAggregation(reportedWords(filters, ctx));
  if (relaxed) aggs[RELAXED_AGG] = relaxed;
  if (Object.keys(aggs).length) body.aggs = aggs;
  if (page.searchAfter) body.search_after = page.searchAfter;
  return body;
}

/** The relaxed words of `q` no result of the whole answer has, from the feed's aggregation. */
export function unmatchedWords(filters: Filters, ctx: QueryContext, aggregations: unknown): string[] {
  const elsewhere = ctx.plan?.elsewhere ?? [];
  if (elsewhere.length) return elsewhere;
  const words = reportedWords(filters, ctx);
  const buckets = (aggregations as Record<string, { buckets?: Record<string, { doc_count: number }> }> | undefined)?.[
    RELAXED_AGG
  ]?.buckets;
  if (!buckets) return [];
  return words.filter((_, i) => (buckets[`w${i}`]?.doc_count ?? 0) === 0).map((w) => w.text);
}

/** The count of the same filters: no documents, no sort, no scoring needed. */
export function buildCountRequest(filters: Filters, ctx: QueryContext): Dsl {
  return { query: buildListingQuery(filters, ctx) };
}
