/** The three indices of the catalog projection. */
export const INDEX_KINDS = ['listings', 'places', 'events'] as const;
export type IndexKind = (typeof INDEX_KINDS)[number];

/** What readers query: an alias that always points at one complete concrete index. */
export function aliasName(prefix: string, kind: IndexKind): string {
  return `${prefix}-${kind}`;
}

/** Every index of one deployment (the aliases' concrete indices, scratch ones): for clean-up and health. */
export function indexPattern(prefix: string): string {
  return `${prefix}-*`;
}

/** A concrete, versioned index; a rebuild writes a new one and then moves the alias to it. */
export function concreteIndexName(prefix: string, kind: IndexKind, stamp: number): string {
  return `${aliasName(prefix, kind)}-v${stamp}`;
}

/** Document ids in the events index: one per occurrence, stable for the same day and slot. */
export function occurrenceId(eventId: number, day: string, slot: number): string {
  return `${eventId}:${day}:${slot}`;
}

/**
 * Redis pub/sub channel on which the indexer announces applied changes of reference data
 * (places, categories, amenities, currencies, FX), so readers can drop cached lists. The message
 * is JSON `{ "entities": ["category", …] }`. Channels are not prefixed by ioredis' keyPrefix,
 * so the prefix is part of the name.
 */
export function referenceChangedChannel(redisKeyPrefix: string): string {
  return `${redisKeyPrefix}catalog:reference-changed`;
}
