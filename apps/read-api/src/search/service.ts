import type { Config } from '@guest/config';
import type { Database } from '@guest/db';
import { errors, type CursorCodec } from '@guest/http-kit';
import {
  BASE_CURRENCY,
  CATEGORY_KINDS,
  convertMinor,
  LISTING_KINDS,
  pickText,
  type ContentLanguage,
  type FxTable,
  type ListingDocument,
  type ListingKind,
  type PlaceDocument,
} from '@guest/catalog';
import type { CachedReads, SearchEngine } from '@guest/search-engine';
import { nameIn, toListingCard, type CardSource } from './cards.ts';
import {
  byCountThenPlace,
  CLUSTER_MAX_ZOOM,
  gridPrecision,
  interiorTiles,
  parseCells,
  toClusterBody,
  type Cell,
  type TileRect,
} from '../geo/clusters.ts';
import { tileKey, type ClusterTiles } from './cluster-tiles.ts';
import { favoriteIds } from './favorites.ts';
import {
  buildCountRequest,
  buildFeedRequest,
  FEED_CURSOR_SCOPE,
  requestFingerprint,
  unmatchedWords,
  type FeedCursor,
} from './feed.ts';
import { buildRelatedQuery, EXACT_MATCH } from './related.ts';
import { nightsBetween } from './totals.ts';
import type { z } from 'zod';
import type { feedParams, Filters, mapParams, PriceRangeParams, SEARCH_KINDS, SuggestParams } from './params.ts';
import { buildFilterValuesRequest, parseFilterValues, type FilterValues } from './filter-values.ts';
import {
  buildClusterRequest,
  buildEdgeClusterRequest,
  buildPointsRequest,
  buildTileClusterRequest,
  clusterTileScope,
  POINTS_PARAMS,
  samplePoints,
  pointsFromHits,
} from './map.ts';
import {
  buildHistogramRequest,
  buildPriceStatsRequest,
  parseHistogram,
  parseUnitHistogram,
  parseUnitStats,
  priceRangeBody,
  type PriceRangeBody,
} from './price-range.ts';
import type { QueryContext } from './query.ts';
import type { QueryUnderstanding } from '../query-understanding/service.ts';
import type { CategoriesService } from '../categories/service.ts';
import type { FeedResponse, MapResponse, SuggestResponse } from './schemas.ts';
import {
  buildListingSuggestRequest,
  buildPlaceSuggestRequest,
  buildPlacesWithKindRequest,
  categoryCodesOf,
  foldSame,
  LISTING_SUGGEST_OVERFETCH,
  orderSuggestedPlaces,
  type LISTING_SUGGEST_SOURCE,
  type PLACE_SUGGEST_SOURCE,
} from './suggest.ts';

/** The latest FX table of the base currency (cached by its owner). */
export interface FxTableSource {
  table(): Promise<FxTable>;
}

/** What the search service needs, given by whoever builds it (the app, a bench, a test). */
export interface SearchServiceDeps {
  engine: SearchEngine;
  /**
   * Where the repeatable reads go (map, count, price range, suggest, first feed pages): a result
   * cache shared for a short while; the engine itself when not given. Later feed pages always go
   * to the engine.
   */
  cache?: CachedReads;
  /** Cluster cells of whole tiles kept between boxes (see `ClusterTiles`); without it every map asks for its box. */
  clusterTiles?: ClusterTiles;
  /** Aliases of the listings and places indices. */
  indices: { listings: string; places: string };
  fx: FxTableSource;
  cursors: CursorCodec;
  config: Pick<Config, 'MAP_MAX_POINTS' | 'SEARCH_SUGGEST_LIMIT' | 'SEARCH_RELATED_BELOW'>;
  /** Postgres: the signed-in guest's favorites overlay the feed. */
  database: Pick<Database, 'pool'>;
  /** What `q` asks for: the places it names, its other words (shared with the events service). */
  understanding: Pick<QueryUnderstanding, 'plan' | 'placesByPrefix'>;
  /** The listing categories, named in a language (suggest names the ones `q` names). */
  categories: Pick<CategoriesService, 'list'>;
}

/*
 * What the service takes and gives is what the routes parse and answer: the types come from the
 * schemas of params.ts and schemas.ts, never written again here.
 */
export type FeedRequest = z.output<ReturnType<typeof feedParams>>;
export type FeedPage = z.output<typeof FeedResponse>;
export type MapRequest = z.output<ReturnType<typeof mapParams>>;
export type MapBody = z.output<typeof MapResponse>;
export type PriceRangeRequest = z.output<typeof PriceRangeParams>;
export type SuggestRequest = z.output<typeof SuggestParams>;
export type SuggestBody = z.output<typeof SuggestResponse>;
type PlaceLevel = SuggestBody['places'][number]['level'];

/** Who asks: the answer's language and, when signed in, the account (for `is_favorite`). */
export interface Viewer {
  lang: ContentLanguage;
  accountId?: string | null | undefined;
  /**
   * The API's public base URL (`publicBaseUrl`), put before photos the catalog gives as paths on
   * the API's own origin (the demo's); without it they are left as paths.
   */
  base?: string | undefined;
}

/** With a kind, this many place candidates are checked for listings of that kind. */
const PLACE_CANDIDATES_WITH_KIND = 30;

/** The clusters of a map from its cells in display order: at most `cap`, `truncated` beyond. */
function clusterBody(cells: Cell[], cap: number): Pick<MapBody, 'clusters' | 'points' | 'truncated'> {
  return { clusters: cells.slice(0, cap).map(toClusterBody), points: [], truncated: cells.length > cap };
}

export type SearchService = ReturnType<typeof createSearchService>;

/**
 * The search of spec 4.7 (feed, map, count, price range, suggest): every engine request of the
 * `/v1/search/*` routes, and the favorites overlay of the feed. Pure builders (`feed.ts`,
 * `map.ts`, `price-range.ts`, `suggest.ts`) make the bodies; this runs them and shapes answers.
 */
export function createSearchService(deps: SearchServiceDeps) {
  const { engine, indices, cursors, config } = deps;
  const cached: CachedReads = deps.cache ?? engine;

  /**
   * A cluster map from kept tile cells (`ClusterTiles`): the tiles wholly inside the box from the
   * cells kept for these filters, those not kept yet from one engine call that keeps them, and the
   * frame along the box's edges from another. The same clusters and total as the box's own
   * request. Null when the box has no whole tile, or nothing may be served from the cache.
   */
  async function clustersFromTiles(filters: Filters, ctx: QueryContext, zoom: number, cap: number) {
    const { bbox } = filters;
    if (!deps.clusterTiles || !bbox) return null;
    const precision = gridPrecision(zoom, bbox, cap);
    const inner = interiorTiles(bbox, precision);
    if (!inner) return null;
    const seen = deps.clusterTiles.lookup(clusterTileScope(filters, ctx, precision), inner);
    if (!seen) return null;
    const { missing } = seen;
    const [edge, fresh] = await Promise.all([
      cached.search(indices.listings, buildEdgeClusterRequest({ ...filters, bbox }, ctx, precision, inner, cap)),
      missing ? cached.search(indices.listings, buildTileClusterRequest(filters, ctx, precision, missing)) : null,
    ]);
    const within = (c: Cell, r: TileRect) => c.x >= r.x0 && c.x <= r.x1 && c.y >= r.y0 && c.y <= r.y1;
    const cells = parseCells(edge.aggregations).filter((c) => !within(c, inner));
    if (missing && fresh) {
      const read = new Map(
        parseCells(fresh.aggregations)
          .filter((c) => within(c, missing))
          .map((c) => [tileKey(c.x, c.y), c]),
      );
      deps.clusterTiles.store(seen, missing, read);
      cells.push(...read.values());
    }
    for (const cell of seen.found.values()) if (cell && !(missing && within(cell, missing))) cells.push(cell);
    cells.sort(byCountThenPlace);
    return { ...clusterBody(cells, cap), total: cells.reduce((n, c) => n + c.count, 0) };
  }

  async function queryContext(q: string | undefined): Promise<QueryContext> {
    const [fx, plan] = await Promise.all([deps.fx.table(), deps.understanding.plan(q)]);
    return { fx, baseCurrency: BASE_CURRENCY, plan };
  }

  /** The position a feed cursor carries; 400 on `cursor` when it belongs to other filters or sort. */
  function feedPosition(cursor: string, fingerprint: string): { a: unknown[]; m?: 'r' | undefined } {
    const c = cursors.decode<FeedCursor>(FEED_CURSOR_SCOPE, cursor);
    if (!c || c.h !== fingerprint || !Array.isArray(c.a) || (c.m !== undefined && c.m !== 'r')) {
      throw errors.validation(
        'cursor',
        'The cursor belongs to other filters or another sort; start again without it.',
        {
          reason: 'filters_changed',
        },
      );
    }
    return { a: c.a, m: c.m };
  }

  /** The places among `places` that hold listings of `kind`, at any depth (their order kept). */
  async function holdingKind<P extends { id: number }>(places: P[], kind: ListingKind): Promise<P[]> {
    if (!places.length) return places;
    const res = await cached.search(
      indices.listings,
      buildPlacesWithKindRequest(
        places.map((p) => p.id),
        kind,
      ),
    );
    const holding = new Set<number>(
      (res.aggregations?.places?.buckets ?? []).map((b: { key: number }) => Number(b.key)),
    );
    return places.filter((p) => holding.has(p.id));
  }

  /** The listing categories of `codes` (of `kind` only, when given), named in `lang`, in the order of `codes`. */
  async function namedCategories(codes: string[], kind: ListingKind | undefined, lang: ContentLanguage) {
    if (!codes.length) return [];
    const kinds: readonly string[] = kind ? [kind] : LISTING_KINDS;
    const lists = await Promise.all(
      CATEGORY_KINDS.filter((k) => kinds.includes(k)).map((k) => deps.categories.list(k, { withCounts: false, lang })),
    );
    const byCode = new Map(lists.flat().map((c) => [c.code, c]));
    return codes.flatMap((code) => {
      const c = byCode.get(code);
      return c ? [{ id: c.id, code: c.code, kind: c.kind as ListingKind, name: c.name }] : [];
    });
  }

  return {
    /**
     * One page of the feed, cursor-paged with `search_after`; `is_favorite` for a signed-in viewer.
     * In relevance order, when fewer than SEARCH_RELATED_BELOW listings match `q` exactly, the
     * exact matches are followed by related ones (related.ts), marked `related`.
     */
    async feed(req: FeedRequest, viewer: Viewer): Promise<FeedPage> {
      const { sort, limit, cursor, ...filters } = req;
      const fingerprint = requestFingerprint(filters, sort);
      const position = cursor ? feedPosition(cursor, fingerprint) : undefined;
      const ctx = await queryContext(filters.q);
      // A first page asks for the exact matches, counted up to SEARCH_RELATED_BELOW; when fewer
      // match, it asks again for the related reading (exact matches first). Later pages continue
      // the list their cursor belongs to.
      // Only the client's own order excludes related listings: one the intents of `q` ask for
      // (cheap, near me) orders the exact matches and then the related ones.
      const canRelate = config.SEARCH_RELATED_BELOW > 0 && sort === 'relevance';
      const relatedQuery = canRelate && (!position || position.m) ? buildRelatedQuery(filters, ctx) : null;
      const page1 = !position && relatedQuery ? config.SEARCH_RELATED_BELOW : undefined;
      let related = position?.m === 'r' ? relatedQuery : null;
      let res = await (position ? engine : cached).search<CardSource>(
        indices.listings,
        buildFeedRequest(filters, ctx, { sort, limit, searchAfter: position?.a, related, countUpTo: page1 }),
      );
      if (page1 !== undefined && res.total < page1) {
        related = relatedQuery;
        res = await cached.search<CardSource>(
          indices.listings,
          buildFeedRequest(filters, ctx, { sort, limit, related }),
        );
      }
      const isExact = (h: { matched_queries?: string[] }) => !!h.matched_queries?.includes(EXACT_MATCH);
      const page = res.hits.slice(0, limit);
      const hasMore = res.hits.length > limit;
      const last = page.at(-1);
      const favorites = viewer.accountId
        ? await favoriteIds(
            deps.database.pool,
            viewer.accountId,
            page.map((h) => h._source.id),
          )
        : null;
      const cursorOf = (a: unknown[]): FeedCursor => (related ? { a, h: fingerprint, m: 'r' } : { a, h: fingerprint });
      return {
        items: page.map((h) =>
          toListingCard(h._source, {
            lang: viewer.lang,
            near: filters.near,
            favorites,
            base: viewer.base,
            related: !!related && !isExact(h),
            nights: filters.date_from ? nightsBetween(filters.date_from, filters.date_to) : undefined,
          }),
        ),
        has_more: hasMore,
        next_cursor: hasMore && last?.sort ? cursors.encode(FEED_CURSOR_SCOPE, cursorOf(last.sort)) : null,
        unmatched_terms: unmatchedWords(filters, ctx, res.aggregations),
      };
    },

    /** Clusters up to `CLUSTER_MAX_ZOOM`, points beyond (sampled over the box when more match). */
    async map(req: MapRequest): Promise<MapBody> {
      const { zoom, ...filters } = req;
      const ctx = await queryContext(filters.q);
      const cap = config.MAP_MAX_POINTS;
      if (zoom <= CLUSTER_MAX_ZOOM) {
        const composed = await clustersFromTiles(filters, ctx, zoom, cap);
        if (composed) return composed;
        const res = await cached.search(indices.listings, buildClusterRequest(filters, ctx, zoom, cap));
        const cells = parseCells(res.aggregations).sort(byCountThenPlace);
        return { ...clusterBody(cells, cap), total: res.total };
      }
      const res = await cached.search(indices.listings, buildPointsRequest(filters, ctx, zoom, cap), POINTS_PARAMS);
      const truncated = res.total > res.hits.length;
      const points = truncated ? samplePoints(res.aggregations, res.hits, cap) : pointsFromHits(res.hits);
      return { clusters: [], points, total: res.total, truncated };
    },

    /** How many listings the filters match, without fetching documents. */
    async count(filters: Filters): Promise<{ count: number }> {
      const ctx = await queryContext(filters.q);
      return { count: await cached.count(indices.listings, buildCountRequest(filters, ctx)) };
    },

    /** Lowest and highest price of one kind (or all) and the histogram, in `currency`; the same per price unit. */
    async priceRange(req: PriceRangeRequest): Promise<PriceRangeBody> {
      const kind = req.kind === 'all' ? undefined : req.kind;
      const fx = await deps.fx.table();
      const currency = req.currency ?? BASE_CURRENCY;
      if (convertMinor(100, BASE_CURRENCY, currency, fx) === null) {
        throw errors.validation('currency', `No exchange rate is known for ${currency}.`, { reason: 'no_rate' });
      }
      const statsRes = await cached.search(indices.listings, buildPriceStatsRequest(kind));
      const stats = {
        count: statsRes.total,
        minBase: (statsRes.aggregations?.min?.value as number | null) ?? null,
        maxBase: (statsRes.aggregations?.max?.value as number | null) ?? null,
      };
      const unitStats = parseUnitStats(statsRes.aggregations);
      let histogram: number[] | null = null;
      const histograms = new Map<string, number[]>();
      if (stats.count && stats.maxBase) {
        const scaled = unitStats.flatMap((u) => (u.unit && u.maxBase ? [{ unit: u.unit, max: u.maxBase }] : []));
        const res = await cached.search(indices.listings, buildHistogramRequest(kind, stats.maxBase, scaled));
        histogram = parseHistogram(res.aggregations);
        for (const u of scaled) histograms.set(u.unit, parseUnitHistogram(res.aggregations, u.unit));
      }
      return priceRangeBody(stats, histogram, currency, fx, { stats: unitStats, histograms });
    },

    /** The codes of the code-valued filters in the catalog (one kind, or all), with counts. */
    async filterValues(kind: (typeof SEARCH_KINDS)[number] | undefined): Promise<FilterValues> {
      const res = await engine.search(indices.listings, buildFilterValuesRequest(kind === 'all' ? undefined : kind));
      return parseFilterValues(res.aggregations);
    },

    /**
     * Places, listings and categories as the guest types; with a kind, only places that hold
     * listings of it and only its categories. Listings of the same title and place come once.
     */
    async suggest(req: SuggestRequest, lang: ContentLanguage): Promise<SuggestBody> {
      const { q, kind } = req;
      const limit = config.SEARCH_SUGGEST_LIMIT;
      const wanted = kind ? PLACE_CANDIDATES_WITH_KIND : limit;
      const [byPrefixAll, plan] = await Promise.all([deps.understanding.placesByPrefix(q), deps.understanding.plan(q)]);
      const byPrefix = byPrefixAll.slice(0, wanted);
      const [placesRes, listingsRes, categories] = await Promise.all([
        cached.search<Pick<PlaceDocument, (typeof PLACE_SUGGEST_SOURCE)[number]>>(
          indices.places,
          buildPlaceSuggestRequest(q, wanted, byPrefix),
        ),
        cached.search<Pick<ListingDocument, (typeof LISTING_SUGGEST_SOURCE)[number]>>(
          indices.listings,
          buildListingSuggestRequest(q, kind, limit * LISTING_SUGGEST_OVERFETCH),
        ),
        namedCategories(categoryCodesOf(plan), kind, lang),
      ]);
      const candidates = orderSuggestedPlaces(
        placesRes.hits.map((h) => h._source),
        byPrefix,
        wanted,
      );
      const places = (kind ? await holdingKind(candidates, kind) : candidates).map((p) => ({
        id: p.id,
        slug: p.slug,
        name: nameIn(p.name, lang),
        name_full: nameIn(p.name_full, lang) || null,
        level: p.level as PlaceLevel,
      }));
      const listings = listingsRes.hits.map(({ _source: l }) => ({
        id: l.id,
        kind: l.kind,
        title: pickText(l.title, lang, l.original_lang)?.text ?? '',
        place_name: nameIn(l.place.name, lang),
      }));
      return {
        places: foldSame(places, (p) => `${p.name}\n${p.name_full ?? ''}`, limit),
        listings: foldSame(listings, (l) => `${l.title}\n${l.place_name}`, limit),
        categories: categories.slice(0, limit),
      };
    },
  };
}
