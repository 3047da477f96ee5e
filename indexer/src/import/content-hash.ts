import { createHash } from 'node:crypto';

function stable(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stable);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value as object)
        .sort()
        .map((k) => [k, stable((value as Record<string, unknown>)[k])]),
    );
  }
  return value;
}

/** Hash of a record independent of key order: equal content, equal hash (idempotent import). */
export function contentHash(record: unknown): string {
  return createHash('sha256')
    .update(JSON.stringify(stable(record)))
    .digest('base64url');
}
