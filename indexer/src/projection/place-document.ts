import { CONTENT_LANGUAGES, type PlaceDocument, type Texts } from '@guest/catalog';
import {
  allTexts,
  documentVersion,
  pathNames,
  placePath,
  placeRef,
  type PlaceRow,
  type ProjectionContext,
} from './context.ts';

/** Pure: a place and its ancestors in, the places-index document out. */
export function projectPlace(place: PlaceRow, ctx: ProjectionContext): PlaceDocument {
  const path = placePath(ctx, place.id);
  const nameFull: Texts = {};
  for (const lang of CONTENT_LANGUAGES) {
    const parts = [...path].reverse().map((p) => (p.name as Texts)[lang] ?? (p.name as Texts).en);
    if ((place.name as Texts)[lang] && parts.every(Boolean)) nameFull[lang] = parts.join(', ');
  }
  return {
    id: place.id,
    external_id: place.externalId,
    parent_id: place.parentId,
    level: place.level,
    slug: place.slug,
    name: place.name as Texts,
    name_full: nameFull,
    path: path.slice(0, -1).map(placeRef),
    path_ids: path.map((p) => p.id),
    place_names: pathNames(path),
    timezone: place.timezone,
    currency: place.currency,
    center:
      place.centerLat !== null && place.centerLon !== null ? { lat: place.centerLat, lon: place.centerLon } : null,
    popular: place.popular,
    // Only names of ancestors are copied into a place document, never FX or categories.
    version: documentVersion(place.version, path, [], { ...ctx, fx: null }),
    suggest: allTexts(place.name as Texts),
  };
}
