import type { FastifyInstance } from 'fastify';
import { aliasName, LISTING_KINDS, type ContentLanguage, type PlaceDocument } from '@guest/catalog';
import {
  countsFrom,
  listingCountsQuery,
  placeEventCountQuery,
  placeKindCountsQuery,
  placesQuery,
  sortPlaces,
  toPlaceResponse,
  type PlaceCounts,
} from './places.ts';

const idx = (app: FastifyInstance, kind: 'places' | 'listings' | 'events') =>
  aliasName(app.runtime.config.INDEX_PREFIX, kind);

async function findPlaces(app: FastifyInstance, f: Parameters<typeof placesQuery>[0]): Promise<PlaceDocument[]> {
  const res = await app.runtime.search.search<PlaceDocument>(idx(app, 'places'), placesQuery(f));
  return res.hits.map((h) => h._source);
}

async function countListings(app: FastifyInstance, ids: number[] | null, withTotals: boolean): Promise<PlaceCounts> {
  if (ids && !ids.length) return { own: new Map(), total: withTotals ? new Map() : null };
  const res = await app.runtime.search.search(idx(app, 'listings'), listingCountsQuery(ids, withTotals));
  return countsFrom(res.aggregations);
}

export async function listPlaces(
  app: FastifyInstance,
  f: { parentId?: number | undefined; level?: string | undefined },
  withTotals: boolean,
  lang: ContentLanguage,
) {
  const docs = await findPlaces(app, f);
  const filtered = f.parentId !== undefined || f.level !== undefined;
  const counts = await countListings(app, filtered ? docs.map((d) => d.id) : null, withTotals);
  return sortPlaces(
    docs.map((d) => toPlaceResponse(d, lang, counts)),
    lang,
  );
}

/** Popular places, the busiest first (listings including nested places), at most `limit`. */
export async function popularPlaces(app: FastifyInstance, withTotals: boolean, limit: number, lang: ContentLanguage) {
  const docs = await findPlaces(app, { popular: true });
  const counts = await countListings(
    app,
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

export async function placeCard(app: FastifyInstance, slug: string, withTotals: boolean, lang: ContentLanguage) {
  const [doc] = await findPlaces(app, { slug });
  if (!doc) return null;
  const ancestorIds = doc.path_ids.filter((id) => id !== doc.id);
  const [ancestors, children, kinds, events] = await Promise.all([
    ancestorIds.length ? findPlaces(app, { ids: ancestorIds }) : Promise.resolve([]),
    findPlaces(app, { parentId: doc.id }),
    app.runtime.search.search(idx(app, 'listings'), placeKindCountsQuery(doc.id)),
    app.runtime.search.search(idx(app, 'events'), placeEventCountQuery(doc.id, app.runtime.clock.now())),
  ]);
  const all = [doc, ...ancestors, ...children];
  const counts = await countListings(
    app,
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
