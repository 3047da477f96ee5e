import type { SearchEngine } from '@guest/search-engine';

export type BulkOp =
  | { action: 'index'; index: string; id: string; version: number; doc: unknown }
  | { action: 'delete'; index: string; id: string; version: number };

export interface BulkOutcome {
  /** Ops the engine refused for a reason other than a newer version being there already. */
  failed: Array<{ op: BulkOp; reason: string }>;
  applied: number;
  /** Refused because the index already holds this or a newer version: nothing to do. */
  stale: number;
}

/** `_bulk` body with external versions: the engine keeps whichever write has the larger one. */
export function bulkBody(ops: BulkOp[], versioned = true): unknown[] {
  const body: unknown[] = [];
  for (const op of ops) {
    const meta: Record<string, unknown> = { _index: op.index, _id: op.id };
    if (versioned) {
      meta.version = op.version;
      meta.version_type = 'external';
    }
    if (op.action === 'index') body.push({ index: meta }, op.doc);
    else body.push({ delete: meta });
  }
  return body;
}

export async function runBulk(
  search: SearchEngine,
  ops: BulkOp[],
  opts: { versioned?: boolean; refresh?: boolean | 'wait_for' } = {},
): Promise<BulkOutcome> {
  const outcome: BulkOutcome = { failed: [], applied: 0, stale: 0 };
  if (!ops.length) return outcome;
  const res = await search.bulk(bulkBody(ops, opts.versioned ?? true), { refresh: opts.refresh ?? false });
  res.items.forEach((item, i) => {
    const r = Object.values(item)[0]!;
    const op = ops[i]!;
    if (r.status >= 200 && r.status < 300) outcome.applied++;
    // 409: this or a newer version is already there (or was deleted at a newer version).
    else if (r.status === 409) outcome.stale++;
    else if (r.status === 404 && op.action === 'delete') outcome.applied++;
    else outcome.failed.push({ op, reason: `${r.status} ${r.error?.type ?? ''}: ${r.error?.reason ?? ''}`.trim() });
  });
  return outcome;
}
