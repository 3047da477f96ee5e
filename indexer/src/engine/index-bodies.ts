import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from '@guest/config';
import type { IndexKind } from '@guest/catalog';

const dir = path.join(repoRoot, 'mappings');
const readJson = (file: string) => JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as Record<string, unknown>;

/** `{"$texts": true}` in a mapping stands for the per-language text fields of texts.json. */
function expandTexts(node: unknown, texts: unknown): unknown {
  if (Array.isArray(node)) return node.map((n) => expandTexts(n, texts));
  if (node && typeof node === 'object') {
    const obj = node as Record<string, unknown>;
    if (obj.$texts === true) return structuredClone(texts);
    return Object.fromEntries(Object.entries(obj).map(([k, v]) => [k, expandTexts(v, texts)]));
  }
  return node;
}

/**
 * The create-index body (settings + mappings) of one index kind, from mappings/*.json, with
 * `replicas` replica copies of each shard (INDEX_REPLICAS: a deployment setting, so not in the JSON).
 */
export function indexBody(kind: IndexKind, replicas: number): Record<string, unknown> {
  const { settings, mappings } = layout(kind);
  settings.index = { ...settings.index, number_of_replicas: replicas };
  return { settings, mappings: { ...mappings, _meta: { layout: layoutHash(kind) } } };
}

function layout(kind: IndexKind): { settings: { index: Record<string, unknown> }; mappings: Record<string, unknown> } {
  const texts = readJson('texts.json');
  delete texts._comment;
  const settings = readJson('settings.json') as { index: Record<string, unknown> };
  return { settings, mappings: expandTexts(readJson(`${kind}.json`), texts) as Record<string, unknown> };
}

/**
 * Fingerprint of an index kind's settings and mappings (replicas aside: a deployment setting),
 * kept in the index's mapping `_meta.layout`. An index whose fingerprint differs was built from
 * other mappings and must be rebuilt: most mapping changes (a field's type, an analyser) cannot
 * be applied to an existing index, and a strict mapping refuses documents with a new field.
 */
export function layoutHash(kind: IndexKind): string {
  return createHash('sha256')
    .update(JSON.stringify(layout(kind)))
    .digest('hex')
    .slice(0, 16);
}
