import { aliasName, concreteIndexName, INDEX_KINDS, type IndexKind } from '@guest/catalog';
import type { SearchEngine } from '@guest/search-engine';
import { indexBody, layoutHash } from './index-bodies.ts';

export type IndexSet = Record<IndexKind, string>;

let lastStamp = 0;
/**
 * Strictly increasing stamps, so two rebuilds in the same millisecond never collide. A stamp
 * names an index and orders it among those every process made: the real time, never a test's
 * clock, which may stand anywhere.
 */
function nextStamp(): number {
  // eslint-disable-next-line no-restricted-syntax -- see above: an identifier, not a moment of the catalog
  lastStamp = Math.max(Date.now(), lastStamp + 1);
  return lastStamp;
}

/** Fresh versioned indices of every kind, `replicas` replica copies each (INDEX_REPLICAS). */
export async function createConcreteIndices(search: SearchEngine, prefix: string, replicas: number): Promise<IndexSet> {
  const stamp = nextStamp();
  const set = {} as IndexSet;
  for (const kind of INDEX_KINDS) set[kind] = concreteIndexName(prefix, kind, stamp);
  await Promise.all(INDEX_KINDS.map((kind) => search.createIndex(set[kind], indexBody(kind, replicas))));
  return set;
}

/**
 * Makes sure every alias exists (an empty index behind it on first start), so the worker and
 * the read API can always address `<prefix>-listings` etc. New indices get `replicas` replica
 * copies (INDEX_REPLICAS); indices that exist already keep theirs.
 */
export async function ensureIndices(search: SearchEngine, prefix: string, replicas: number): Promise<void> {
  const missing: IndexKind[] = [];
  for (const kind of INDEX_KINDS) {
    if (!(await search.getAlias(aliasName(prefix, kind))).length) missing.push(kind);
  }
  if (!missing.length) return;
  const stamp = nextStamp();
  const actions = [];
  for (const kind of missing) {
    const index = concreteIndexName(prefix, kind, stamp);
    await search.createIndex(index, indexBody(kind, replicas));
    actions.push({ add: { index, alias: aliasName(prefix, kind), is_write_index: true } });
  }
  try {
    await search.updateAliases(actions);
  } catch (err) {
    // Another process created the aliases first: drop ours and use theirs.
    for (const a of actions) await search.deleteIndex(a.add.index);
    for (const kind of missing) {
      if (!(await search.getAlias(aliasName(prefix, kind))).length) throw err;
    }
  }
}

/**
 * Index kinds whose alias points at an index built from other mappings than mappings/ holds now
 * (or from before fingerprints were kept): those need a rebuild (`reindexAll`).
 */
export async function staleIndexKinds(search: SearchEngine, prefix: string): Promise<IndexKind[]> {
  const stale: IndexKind[] = [];
  for (const kind of INDEX_KINDS) {
    const alias = aliasName(prefix, kind);
    if (!(await search.getAlias(alias)).length) continue;
    const metas = Object.values(await search.getMappingMeta(alias));
    if (metas.some((m) => m.layout !== layoutHash(kind))) stale.push(kind);
  }
  return stale;
}

/**
 * Points every alias at the new indices in ONE `_aliases` call (atomic for readers) and returns
 * the indices the aliases pointed at before.
 */
export async function swapAliases(search: SearchEngine, prefix: string, next: IndexSet): Promise<string[]> {
  const actions: unknown[] = [];
  const old: string[] = [];
  for (const kind of INDEX_KINDS) {
    const alias = aliasName(prefix, kind);
    for (const index of await search.getAlias(alias)) {
      if (index === next[kind]) continue;
      old.push(index);
      actions.push({ remove: { index, alias } });
    }
    actions.push({ add: { index: next[kind], alias, is_write_index: true } });
  }
  await search.updateAliases(actions);
  return old;
}

/** Deletes indices the aliases left, after `graceMs`: a search that resolved an alias just before the swap may still run on them. */
export async function deleteOldIndices(search: SearchEngine, old: string[], graceMs = 0): Promise<void> {
  if (graceMs > 0) await new Promise((r) => setTimeout(r, graceMs));
  for (const index of old) await search.deleteIndex(index);
}
