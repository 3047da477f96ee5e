import { createCipheriv, createDecipheriv, createHash, createHmac, hkdfSync, randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { and, eq, lt, sql } from 'drizzle-orm';
import { schema, type Db } from '@guest/db';
import { AppError, errors } from './errors/app-error.ts';

const { idempotencyKeys } = schema;
const KEY_FORMAT = /^[A-Za-z0-9._:-]{8,200}$/;
// An in-flight row older than this belongs to a request that died with its process; a repeat
// may take it over instead of waiting a whole day for it to expire.
const ABANDONED_AFTER_MS = 60_000;
// Headers of the first answer that a replay repeats (a credential answer must stay `no-store`).
const KEPT_HEADERS = ['content-type', 'cache-control', 'location'] as const;
// Stored bodies are sealed: `v1.` + base64url(iv ‖ tag ‖ AES-256-GCM ciphertext).
const SEALED_PREFIX = 'v1.';
const IV_BYTES = 12;
const TAG_BYTES = 16;

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

interface IdemKeys {
  /** AES-256-GCM key for stored bodies. */
  body: Buffer;
  /** HMAC-SHA256 key for request digests. */
  digest: Buffer;
}

function deriveKeys(secret: string): IdemKeys {
  const derive = (info: string) => Buffer.from(hkdfSync('sha256', secret, 'guest-api idempotency', info, 32));
  return { body: derive('response-body-v1'), digest: derive('request-digest-v1') };
}

/**
 * Digest of what was asked, to tell a repeat from a reuse of the key. Keyed (HMAC), because a
 * body can hold a password: a plain hash of a guessable body would let anyone who reads the table
 * test password guesses offline at hash speed.
 */
function requestHash(req: FastifyRequest, keys: IdemKeys): string {
  return createHmac('sha256', keys.digest)
    .update(`${req.method} ${req.url.split('?')[0]}\n${canonical(req.body)}`)
    .digest('hex');
}

/** Rows claimed before digests were keyed: recognised while they live (IDEMPOTENCY_TTL_H). */
function legacyRequestHash(req: FastifyRequest): string {
  return createHash('sha256')
    .update(`${req.method} ${req.url.split('?')[0]}\n${canonical(req.body)}`)
    .digest('hex');
}

// The row's identity is authenticated with the body, so a sealed body cannot be moved to another row.
const rowAad = (scope: string, key: string) => Buffer.from(`${scope}\n${key}`);

/** Answers kept for replay can carry credentials (a token pair): none is ever stored in the clear. */
function seal(keys: IdemKeys, scope: string, key: string, body: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', keys.body, iv);
  cipher.setAAD(rowAad(scope, key));
  const data = Buffer.concat([cipher.update(body, 'utf8'), cipher.final()]);
  return SEALED_PREFIX + Buffer.concat([iv, cipher.getAuthTag(), data]).toString('base64url');
}

/** The stored body, or undefined when it cannot be opened (another secret, not sealed, altered). */
function unseal(keys: IdemKeys, scope: string, key: string, stored: string): string | undefined {
  if (!stored.startsWith(SEALED_PREFIX)) return undefined;
  try {
    const raw = Buffer.from(stored.slice(SEALED_PREFIX.length), 'base64url');
    if (raw.length < IV_BYTES + TAG_BYTES) return undefined;
    const decipher = createDecipheriv('aes-256-gcm', keys.body, raw.subarray(0, IV_BYTES));
    decipher.setAAD(rowAad(scope, key));
    decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
  } catch {
    return undefined;
  }
}

/**
 * `Idempotency-Key` for creating routes (route config `idempotent: true`). The first request
 * with a key claims it in Postgres; a repeat with the same body replays the stored status and
 * body; a repeat while the first is still running, or with another body, is 409 `conflict`
 * (`details.reason` = `in_flight` or `key_reused`). 5xx answers are not stored, so a retry runs.
 *
 * Nothing replayable is kept in the clear: the stored body is sealed with AES-256-GCM under a key
 * derived from `IDEMPOTENCY_SECRET` (bound to the row's scope and key), the request digest is an
 * HMAC. A stored answer that cannot be opened (the secret changed, the row was altered) is
 * dropped like an abandoned claim, and the request runs again.
 */
export function registerIdempotency(app: FastifyInstance, db: Db, ttlHours: number): void {
  const keys = deriveKeys(app.runtime.config.IDEMPOTENCY_SECRET);

  app.addHook('preHandler', async (req, reply) => {
    if (!req.routeOptions.config?.idempotent) return;
    const header = req.headers['idempotency-key'];
    if (header === undefined) return;
    if (typeof header !== 'string' || !KEY_FORMAT.test(header)) {
      throw errors.validation('Idempotency-Key', 'Idempotency-Key must be 8 to 200 characters of A-Z a-z 0-9 . _ : -');
    }
    const scope = req.actorId ? `actor:${req.actorId}` : `ip:${req.ip}`;
    const hash = requestHash(req, keys);
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
      if (row.requestHash !== hash && row.requestHash !== legacyRequestHash(req)) {
        throw errors.conflict('key_reused', 'This Idempotency-Key was already used with a different request.');
      }
      if (row.state === 'in_flight') {
        throw errors.conflict('in_flight', 'A request with this Idempotency-Key is still being processed.');
      }
      const body = row.responseBody === null ? null : unseal(keys, scope, header, row.responseBody);
      if (body === undefined) {
        // Sealed under another secret, or altered: it cannot be replayed, so the request runs again.
        // Only this very row is removed (same stored body), never a claim made meanwhile.
        req.log.warn({ scope, key: header }, 'stored idempotent answer cannot be opened; running the request again');
        await db
          .delete(idempotencyKeys)
          .where(
            and(
              eq(idempotencyKeys.scope, scope),
              eq(idempotencyKeys.key, header),
              eq(idempotencyKeys.state, 'done'),
              eq(idempotencyKeys.responseBody, row.responseBody!),
            ),
          );
        continue;
      }
      req.idempotency = { role: 'replay', scope, key: header };
      return replay(reply, row.responseStatus ?? 200, row.responseHeaders ?? {}, body);
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
    const headers: Record<string, string> = {};
    for (const name of KEPT_HEADERS) {
      const value = reply.getHeader(name);
      if (value !== undefined) headers[name] = String(value);
    }
    const body = (payload as string | null | undefined) ?? null;
    await db
      .update(idempotencyKeys)
      .set({
        state: 'done',
        responseStatus: reply.statusCode,
        responseHeaders: headers,
        responseBody: body === null ? null : seal(keys, st.scope, st.key, body),
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
