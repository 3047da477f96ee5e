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
  const texts = readJson('texts.json');
  delete texts._comment;
  const settings = readJson('settings.json') as { index: Record<string, unknown> };
  settings.index = { ...settings.index, number_of_replicas: replicas };
  return { settings, mappings: expandTexts(readJson(`${kind}.json`), texts) };
}
