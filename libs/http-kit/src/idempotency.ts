import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { and, eq, lt, sql } from 'drizzle-orm';
import { schema, type Db } from '@guest/db';
import { AppError, errors } from './errors/app-error.ts';

const { idempotencyKeys } = schema;
const KEY_FORMAT = /^[A-Za-z0-9._:-]{8,200}$/;
// An in-flight row older than this belongs to a request that died with its process; a repeat
// may take it over instead of waiting a whole day for it to expire.
const ABANDONED_AFTER_MS = 60_000;

interface IdemState {
  role: 'owner' | 'replay';
  scope: string;
  key: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    idempotency?: IdemState;
  }
  interface FastifyContextConfig {
    /** Creating request: honours `Idempotency-Key` (spec, section 1). */
    idempotent?: boolean;
  }
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

function requestHash(req: FastifyRequest): string {
  return createHash('sha256')
    .update(`${req.method} ${req.url.split('?')[0]}\n${canonical(req.body)}`)
    .digest('hex');
}

/**
 * `Idempotency-Key` for creating routes (route config `idempotent: true`). The first request
 * with a key claims it in Postgres; a repeat with the same body replays the stored status and
 * body; a repeat while the first is still running, or with another body, is 409 `conflict`
 * (`details.reason` = `in_flight` or `key_reused`). 5xx answers are not stored, so a retry runs.
 */
export function registerIdempotency(app: FastifyInstance, db: Db, ttlHours: number): void {
  app.addHook('preHandler', async (req, reply) => {
    if (!req.routeOptions.config?.idempotent) return;
    const header = req.headers['idempotency-key'];
    if (header === undefined) return;
    if (typeof header !== 'string' || !KEY_FORMAT.test(header)) {
      throw errors.validation('Idempotency-Key', 'Idempotency-Key must be 8 to 200 characters of A-Z a-z 0-9 . _ : -');
    }
    const scope = req.actorId ? `actor:${req.actorId}` : `ip:${req.ip}`;
    const hash = requestHash(req);
    const now = new Date();
    const expiresAt = new Date(now.getTime() + ttlHours * 3_600_000);

    for (let attempt = 0; attempt < 3; attempt++) {
      const claimed = await db
        .insert(idempotencyKeys)
        .values({
          scope,
          key: header,
          method: req.method,
          path: req.url.split('?')[0] ?? req.url,
          requestHash: hash,
          state: 'in_flight',
          expiresAt,
        })
        .onConflictDoNothing()
        .returning({ key: idempotencyKeys.key });
      if (claimed.length) {
        req.idempotency = { role: 'owner', scope, key: header };
        return;
      }
      const [row] = await db
        .select()
        .from(idempotencyKeys)
        .where(and(eq(idempotencyKeys.scope, scope), eq(idempotencyKeys.key, header)));
      if (!row) continue; // removed between our insert and select: try to claim again
      const expired = row.expiresAt.getTime() <= now.getTime();
      const abandoned = row.state === 'in_flight' && now.getTime() - row.createdAt.getTime() > ABANDONED_AFTER_MS;
      if (expired || abandoned) {
        // Conditions re-checked in SQL, so two repeats cannot both take over one row.
        await db
          .delete(idempotencyKeys)
          .where(
            and(
              eq(idempotencyKeys.scope, scope),
              eq(idempotencyKeys.key, header),
              sql`(${idempotencyKeys.expiresAt} <= now() or (${idempotencyKeys.state} = 'in_flight' and ${idempotencyKeys.createdAt} < now() - make_interval(secs => ${ABANDONED_AFTER_MS / 1000})))`,
            ),
          );
        continue;
      }
      if (row.requestHash !== hash) {
        throw errors.conflict('key_reused', 'This Idempotency-Key was already used with a different request.');
      }
      if (row.state === 'in_flight') {
        throw errors.conflict('in_flight', 'A request with this Idempotency-Key is still being processed.');
      }
      req.idempotency = { role: 'replay', scope, key: header };
      return replay(reply, row.responseStatus ?? 200, row.responseHeaders ?? {}, row.responseBody);
    }
    throw new AppError('conflict', 'Could not claim the Idempotency-Key; try again.', { reason: 'in_flight' });
  });

  app.addHook('onSend', async (req, reply, payload) => {
    const st = req.idempotency;
    if (!st || st.role !== 'owner') return payload;
    const where = and(eq(idempotencyKeys.scope, st.scope), eq(idempotencyKeys.key, st.key));
    if (reply.statusCode >= 500 || (typeof payload !== 'string' && payload !== null && payload !== undefined)) {
      await db.delete(idempotencyKeys).where(where);
      return payload;
    }
    const contentType = reply.getHeader('content-type');
    await db
      .update(idempotencyKeys)
      .set({
        state: 'done',
        responseStatus: reply.statusCode,
        responseHeaders: contentType ? { 'content-type': String(contentType) } : {},
        responseBody: (payload as string | null | undefined) ?? null,
      })
      .where(where);
    return payload;
  });

  // A client that hangs up before the answer leaves nothing claimed.
  app.addHook('onRequestAbort', async (req) => {
    const st = req.idempotency;
    if (st?.role !== 'owner') return;
    await db
      .delete(idempotencyKeys)
      .where(
        and(
          eq(idempotencyKeys.scope, st.scope),
          eq(idempotencyKeys.key, st.key),
          eq(idempotencyKeys.state, 'in_flight'),
        ),
      );
  });
}

function replay(reply: FastifyReply, status: number, headers: Record<string, string>, body: string | null) {
  reply.code(status).headers(headers).header('idempotent-replayed', 'true');
  return reply.send(body ?? undefined);
}

/** Removes expired keys; run periodically by the worker. */
export async function purgeExpiredIdempotencyKeys(db: Db): Promise<number> {
  const res = await db.delete(idempotencyKeys).where(lt(idempotencyKeys.expiresAt, sql`now()`));
  return res.rowCount ?? 0;
}
