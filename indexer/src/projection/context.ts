import type { schema } from '@guest/db';
import type { FxTable, PlaceNames, PlaceRef, Texts } from '@guest/catalog';
import { CONTENT_LANGUAGES } from '@guest/catalog';

export type PlaceRow = typeof schema.places.$inferSelect;
export type CategoryRow = typeof schema.categories.$inferSelect;
export type ListingRow = typeof schema.listings.$inferSelect;
export type EventRow = typeof schema.events.$inferSelect;
export type EventScheduleRow = typeof schema.eventSchedules.$inferSelect;

/** Reference data every projection reads: small enough to hold in memory for a whole rebuild. */
export interface ProjectionContext {
  places: Map<number, PlaceRow>;
  categories: Map<number, CategoryRow>;
  fx: (FxTable & { version: number }) | null;
}

/** The place and its ancestors, from the country down. */
export function placePath(ctx: ProjectionContext, placeId: number): PlaceRow[] {
  const path: PlaceRow[] = [];
  const seen = new Set<number>();
  for (let p = ctx.places.get(placeId); p && !seen.has(p.id); p = p.parentId ? ctx.places.get(p.parentId) : undefined) {
    seen.add(p.id);
    path.unshift(p);
  }
  return path;
}

export function placeRef(p: PlaceRow): PlaceRef {
  return { id: p.id, slug: p.slug, level: p.level, name: p.name as Texts };
}

/** Names of the whole path per language, so `q` = a district or city in any language matches. */
export function pathNames(path: PlaceRow[]): PlaceNames {
  const names: PlaceNames = {};
  for (const lang of CONTENT_LANGUAGES) {
    const list = path.map((p) => (p.name as Texts)[lang]).filter((n): n is string => Boolean(n));
    if (list.length) names[lang] = list;
  }
  return names;
}

/**
 * A document changes when its own row or anything it copies changes (its places' names, its
 * categories, the FX rates). Every one of those writes draws from one sequence, so the largest of
 * their versions is a version that only ever grows: usable as the engine's external version.
 */
export function documentVersion(own: number, path: PlaceRow[], categoryVersions: number[], ctx: ProjectionContext) {
  return Math.max(own, ...path.map((p) => p.version), ...categoryVersions, ctx.fx?.version ?? 0);
}

export function allTexts(...texts: Texts[]): string[] {
  return [...new Set(texts.flatMap((t) => Object.values(t).filter((v): v is string => Boolean(v))))];
}
