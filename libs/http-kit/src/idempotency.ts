import { createCipheriv, createDecipheriv, createHash, createHmac, hkdfSync, randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { and, eq, lt, sql } from 'drizzle-orm';
import { z } from 'zod';
import { schema, type Db } from '@guest/db';
import { AppError, errors } from './errors/app-error.ts';

const { idempotencyKeys } = schema;
const KEY_FORMAT = /^[A-Za-z0-9._:-]{8,200}$/;
// The IETF draft makes the key a Structured Field string: `"…"`, printable ASCII, with `\"` and `\\`.
const QUOTED_KEY = /^"((?:[\x20\x21\x23-\x5b\x5d-\x7e]|\\["\\]){8,200})"$/;
const KEY_RULE =
  'Idempotency-Key must be 8 to 200 characters of A-Z a-z 0-9 . _ : -, or a quoted string of 8 to 200 printable ASCII characters.';
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
 * `Idempotency-Key` for creating routes (route config `idempotent: true`; DESIGN section 6). The
 * first request with a key claims it in Postgres; a repeat with the same body replays the stored
 * status and body (with the repeat's own request id); a repeat while the first is still running,
 * or with another request, is 409 `conflict` (`details.reason` = `in_flight` or `key_reused`)
 * and creates nothing. A signed-in key belongs to the actor; a signed-out one is the key alone
 * (DESIGN section 7: scoping it by the request too let a reused key create a second record).
 * Only answers below 400 are stored: a refused request (4xx) changed nothing, and a 5xx is
 * retried, so either runs again with the same key.
 *
 * Nothing replayable is kept in the clear: the stored body is sealed with AES-256-GCM under a key
 * derived from `IDEMPOTENCY_SECRET` (bound to the row's scope and key), the request digest is an
 * HMAC. A stored answer that cannot be opened (the secret changed, the row was altered) is
 * dropped like an abandoned claim, and the request runs again.
 */
export function registerIdempotency(app: FastifyInstance, db: Db, ttlHours: number): void {
  const keys = deriveKeys(app.runtime.config.IDEMPOTENCY_SECRET);
  declareIdempotencyHeader(app);

  app.addHook('preHandler', async (req, reply) => {
    if (!req.routeOptions.config?.idempotent) return;
    const raw = req.headers['idempotency-key'];
    if (raw === undefined) return;
    const header = parseKey(raw);
    if (header === null) throw errors.validation('Idempotency-Key', KEY_RULE);
    const hash = requestHash(req, keys);
    // Signed in: the actor's key. Signed out: the key alone, never the client's address, so a phone
    // that moves from Wi-Fi to LTE still gets its replay, and the same key with another request is
    // told apart (409) rather than taken for a second request.
    const scope = req.actorId ? `actor:${req.actorId}` : 'anon';
    const now = app.runtime.clock.now();
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
          createdAt: now,
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
              sql`(${idempotencyKeys.expiresAt} <= ${now} or (${idempotencyKeys.state} = 'in_flight' and ${idempotencyKeys.createdAt} < ${new Date(now.getTime() - ABANDONED_AFTER_MS)}))`,
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
      return replay(reply, row.responseStatus ?? 200, row.responseHeaders ?? {}, body, req.id);
    }
    throw new AppError('conflict', 'Could not claim the Idempotency-Key; try again.', { reason: 'in_flight' });
  });

  app.addHook('onSend', async (req, reply, payload) => {
    const st = req.idempotency;
    if (!st || st.role !== 'owner') return payload;
    const where = and(eq(idempotencyKeys.scope, st.scope), eq(idempotencyKeys.key, st.key));
    // Only answers with an effect are kept: a request refused by validation or by a rule (4xx)
    // changed nothing, so the corrected request with the same key runs; 5xx are retried.
    if (reply.statusCode >= 400 || (typeof payload !== 'string' && payload !== null && payload !== undefined)) {
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

/** The key of the header: a bare token, or the draft's quoted string (unescaped); null when malformed. */
export function parseKey(raw: string | string[]): string | null {
  if (typeof raw !== 'string') return null;
  const value = raw.trim();
  if (KEY_FORMAT.test(value)) return value;
  const quoted = QUOTED_KEY.exec(value);
  return quoted ? quoted[1]!.replace(/\\(["\\])/g, '$1') : null;
}

/**
 * Replays a stored answer under the current request: its id is in `X-Request-Id` (set on every
 * answer) and in the body wherever the body names one (an error envelope's `request_id`).
 */
function replay(reply: FastifyReply, status: number, headers: Record<string, string>, body: string | null, id: string) {
  reply.code(status).headers(headers).header('idempotent-replayed', 'true');
  return reply.send(body === null ? undefined : withRequestId(body, id));
}

export function withRequestId(body: string, id: string): string {
  if (!body.includes('"request_id"')) return body;
  try {
    const parsed = JSON.parse(body) as Record<string, any>;
    if (parsed && typeof parsed === 'object') {
      if (parsed.error && typeof parsed.error === 'object' && 'request_id' in parsed.error)
        parsed.error.request_id = id;
      if ('request_id' in parsed) parsed.request_id = id;
      return JSON.stringify(parsed);
    }
  } catch {
    // Not JSON: replayed as stored.
  }
  return body;
}

/** What the header accepts (a bare token or the draft's quoted string), for the OpenAPI document. */
export const IDEMPOTENCY_KEY_PATTERN = `^(?:${KEY_FORMAT.source.slice(1, -1)}|${QUOTED_KEY.source.slice(1, -1)})$`;

export const IDEMPOTENCY_KEY_DESCRIPTION =
  'Makes a creating request safe to retry: a repeat with the same key (signed in: of the same account; ' +
  'signed out: the key alone) and the same request within the retention period replays the first answer ' +
  '(`Idempotent-Replayed: true`) and creates nothing; the same key with another request is 409 and creates nothing. 8 to 200 characters of `A-Z a-z 0-9 . _ : -`, or the ' +
  'same as a quoted string (`"…"`). Refused requests (4xx) are not kept: the corrected request may reuse the key. ' +
  '409 `conflict`: the first is still running (`in_flight`) or the key came with another request (`key_reused`).';

/** The header as an OpenAPI parameter of every creating operation. */
const IdempotencyHeaders = z.looseObject({
  'idempotency-key': z
    .string()
    .optional()
    .meta({ description: IDEMPOTENCY_KEY_DESCRIPTION, example: '7f0c2a4e-3b1d-4c9a-9e8f-5a6b7c8d9e0f' }),
});

/**
 * Declares the header on every creating route (`config.idempotent`) for the OpenAPI document. The
 * schema accepts any string (the hook checks the format with its own message) and keeps every
 * other header (`looseObject`).
 */
export function declareIdempotencyHeader(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    if (!(route.config as { idempotent?: boolean } | undefined)?.idempotent) return;
    const schema = (route.schema ??= {}) as Record<string, unknown>;
    const own = schema.headers as z.ZodObject | undefined;
    schema.headers = own instanceof z.ZodObject ? own.extend(IdempotencyHeaders.shape).loose() : IdempotencyHeaders;
  });
}

/** Removes expired keys; run periodically by the worker. */
export async function purgeExpiredIdempotencyKeys(db: Db): Promise<number> {
  const res = await db.delete(idempotencyKeys).where(lt(idempotencyKeys.expiresAt, sql`now()`));
  return res.rowCount ?? 0;
}
