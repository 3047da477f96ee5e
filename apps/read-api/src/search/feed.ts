import { hash } from 'node:crypto';
import type { Dsl } from '@guest/search-engine';
import { CARD_SOURCE } from './cards.ts';
import type { Filters, Sort } from './params.ts';
import { buildListingQuery, hasText, type QueryContext } from './query.ts';
import { buildSort } from './sort.ts';

/** Scope of feed cursors: a cursor of another list is refused. */
export const FEED_CURSOR_SCOPE = 'search.listings';

/** What a feed cursor carries: the sort values of the last card and the request it belongs to. */
export interface FeedCursor {
  /** `search_after`: sort values of the last card of the previous page (ends with the id). */
  a: unknown[];
  /** Fingerprint of the filters and sort; a cursor used with other filters is refused. */
  h: string;
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

/** One page of the feed: `limit + 1` hits, so `has_more` is known without counting. */
export function buildFeedRequest(
  filters: Filters,
  ctx: QueryContext,
  page: { sort: Sort; limit: number; searchAfter?: unknown[] | undefined },
): Dsl {
  const body: Dsl = {
    size: page.limit + 1,
    track_total_hits: false,
    _source: [...CARD_SOURCE],
    query: buildListingQuery(filters, ctx),
    sort: buildSort(page.sort, { hasText: hasText(filters, ctx), near: filters.near }),
  };
  if (page.searchAfter) body.search_after = page.searchAfter;
  return body;
}

/** The count of the same filters: no documents, no sort, no scoring needed. */
export function buildCountRequest(filters: Filters, ctx: QueryContext): Dsl {
  return { query: buildListingQuery(filters, ctx) };
}
