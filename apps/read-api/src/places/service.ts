import { LISTING_KINDS, type ContentLanguage, type PlaceDocument } from '@guest/catalog';
import type { Clock } from '@guest/runtime';
import type { SearchEngine } from '@guest/search-engine';
import {
  countsFrom,
  listingCountsQuery,
  placeEventCountQuery,
  placeKindCountsQuery,
  placesQuery,
  sortPlaces,
  toPlaceResponse,
  type PlaceCounts,
} from './query.ts';

/** What the places service needs, given by whoever builds it (the app, a bench, a test). */
export interface PlacesServiceDeps {
  engine: SearchEngine;
  /** Aliases of the places index, and of the listings and events indices the counts come from. */
  indices: { places: string; listings: string; events: string };
  clock: Clock;
}

export type PlacesService = ReturnType<typeof createPlacesService>;

/** Places of spec 4.5 with their listing and event counts: every engine request of `/v1/places*`. */
export function createPlacesService(deps: PlacesServiceDeps) {
  return {
    list: (
      f: { parentId?: number | undefined; level?: string | undefined },
      withTotals: boolean,
      lang: ContentLanguage,
    ) => listPlaces(deps, f, withTotals, lang),
    popular: (withTotals: boolean, limit: number, lang: ContentLanguage) =>
      popularPlaces(deps, withTotals, limit, lang),
    /** One place with its path, children and counts per kind; null when there is none with `slug`. */
    card: (slug: string, withTotals: boolean, lang: ContentLanguage) => placeCard(deps, slug, withTotals, lang),
  };
}

async function findPlaces(deps: PlacesServiceDeps, f: Parameters<typeof placesQuery>[0]): Promise<PlaceDocument[]> {
  const res = await deps.engine.search<PlaceDocument>(deps.indices.places, placesQuery(f));
  return res.hits.map((h) => h._source);
}

async function countListings(deps: PlacesServiceDeps, ids: number[] | null, withTotals: boolean): Promise<PlaceCounts> {
  if (ids && !ids.length) return { own: new Map(), total: withTotals ? new Map() : null };
  const res = await deps.engine.search(deps.indices.listings, listingCountsQuery(ids, withTotals));
  return countsFrom(res.aggregations);
}

async function listPlaces(
  deps: PlacesServiceDeps,
  f: { parentId?: number | undefined; level?: string | undefined },
  withTotals: boolean,
  lang: ContentLanguage,
) {
  const docs = await findPlaces(deps, f);
  const filtered = f.parentId !== undefined || f.level !== undefined;
  const counts = await countListings(deps, filtered ? docs.map((d) => d.id) : null, withTotals);
  return sortPlaces(
    docs.map((d) => toPlaceResponse(d, lang, counts)),
    lang,
  );
}

/** Popular places, the busiest first (listings including nested places), at most `limit`. */
async function popularPlaces(deps: PlacesServiceDeps, withTotals: boolean, limit: number, lang: ContentLanguage) {
  const docs = await findPlaces(deps, { popular: true });
  const counts = await countListings(
    deps,
    docs.map((d) => d.id),
    true,
  );
  const shown: PlaceCounts = { own: counts.own, total: withTotals ? counts.total : null };
  const weight = (id: number) => counts.total?.get(id) ?? 0;
  return docs
    .map((d) => toPlaceResponse(d, lang, shown))
    .sort((a, b) => weight(b.id) - weight(a.id) || a.name.localeCompare(b.name, lang) || a.id - b.id)
    .slice(0, limit);
}

async function placeCard(deps: PlacesServiceDeps, slug: string, withTotals: boolean, lang: ContentLanguage) {
  const [doc] = await findPlaces(deps, { slug });
  if (!doc) return null;
  const ancestorIds = doc.path_ids.filter((id) => id !== doc.id);
  const [ancestors, children, kinds, events] = await Promise.all([
    ancestorIds.length ? findPlaces(deps, { ids: ancestorIds }) : Promise.resolve([]),
    findPlaces(deps, { parentId: doc.id }),
    deps.engine.search(deps.indices.listings, placeKindCountsQuery(doc.id)),
    deps.engine.search(deps.indices.events, placeEventCountQuery(doc.id, deps.clock.now())),
  ]);
  const all = [doc, ...ancestors, ...children];
  const counts = await countListings(
    deps,
    all.map((d) => d.id),
    withTotals,
  );
  const byId = new Map(ancestors.map((a) => [a.id, a]));
  const kindCounts: Record<string, number> = Object.fromEntries(LISTING_KINDS.map((k) => [k, 0]));
  for (const b of kinds.aggregations?.kinds?.buckets ?? []) kindCounts[b.key] = b.doc_count;
  kindCounts.events = events.aggregations?.events?.value ?? 0;
  return {
    ...toPlaceResponse(doc, lang, counts),
    path: ancestorIds.flatMap((id) => {
      const a = byId.get(id);
      return a ? [toPlaceResponse(a, lang, counts)] : [];
    }),
    children: sortPlaces(
      children.map((c) => toPlaceResponse(c, lang, counts)),
      lang,
    ),
    counts: kindCounts,
  };
}
