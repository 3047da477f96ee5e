import { isIP } from 'node:net';
import { z } from 'zod';
import { SECRET_MIN_BYTES } from './secrets.ts';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');
const int = (def: number, min = 0, max = Number.MAX_SAFE_INTEGER) =>
  z.coerce.number().int().min(min).max(max).default(def);
const url = (protocols: string[]) =>
  z.string().refine(
    (v) => {
      try {
        return protocols.includes(new URL(v).protocol);
      } catch {
        return false;
      }
    },
    `must be a URL with scheme ${protocols.join(' or ')}`,
  );

/** Names `proxy-addr` (Fastify's `trustProxy`) knows for address ranges. */
const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function proxyEntryProblem(entry: string): string | null {
  if (PROXY_RANGE_NAMES.has(entry)) return null;
  const [addr, bits, ...rest] = entry.split('/');
  const family = isIP(addr ?? '');
  if (!family || rest.length) return `"${entry}" is not an IP address or CIDR`;
  if (bits === undefined) return null;
  const max = family === 4 ? 32 : 128;
  if (!/^[0-9]{1,3}$/.test(bits) || Number(bits) > max) return `"${entry}" has a prefix length outside 0–${max}`;
  return null;
}

/**
 * DESIGN.md section 6: the proxies in front of the service, so that the client address is the
 * first untrusted hop from the right of `X-Forwarded-For` (never the left-most entry, which any
 * client can write). `false` (or `0`, or unset): no proxy, the socket's peer is the client. A
 * hop count (`1` behind one load balancer, `2` behind a CDN and a load balancer): that many
 * hops, counted from the socket's peer, are proxies. A comma-separated list of addresses and
 * CIDRs (and the names `loopback`, `linklocal`, `uniquelocal`): hops from those addresses are
 * proxies. `true` ("trust every hop") is refused: it lets each client choose its own address.
 */
const trustProxy = z
  .string()
  .default('false')
  .transform((raw, ctx): false | number | string[] => {
    const v = raw.trim().toLowerCase();
    if (v === '' || v === 'false' || v === 'no' || v === '0') return false;
    if (v === 'true' || v === 'yes' || v === '*') {
      ctx.addIssue({
        code: 'custom',
        message:
          'trusting every proxy hop is refused (any client could choose its own address in X-Forwarded-For): ' +
          'give the number of proxies in front of the service (e.g. 1) or their addresses/CIDRs (e.g. 10.0.0.0/8,192.0.2.7)',
      });
      return z.NEVER;
    }
    if (/^[0-9]+$/.test(v)) {
      const hops = Number(v);
      if (hops > 20) {
        ctx.addIssue({ code: 'custom', message: 'a hop count must be 0 to 20' });
        return z.NEVER;
      }
      return hops;
    }
    const entries = v
      .split(',')
      .map((e) => e.trim())
      .filter(Boolean);
    const problems = entries.map(proxyEntryProblem).filter((p): p is string => p !== null);
    if (problems.length || !entries.length) {
      ctx.addIssue({
        code: 'custom',
        message: `a hop count or a comma-separated list of proxy addresses/CIDRs: ${problems.join('; ') || 'empty list'}`,
      });
      return z.NEVER;
    }
    return entries;
  });

/**
 * Browser origins allowed to call the API (CORS): comma-separated exact origins
 * (`https://app.example.com`, scheme and host and an optional port, nothing after it), or `*`
 * for any origin (refused in production by `loadConfig`: any web page could then read answers).
 */
const corsOrigins = z
  .string()
  .default('')
  .transform((raw, ctx): string[] => {
    const entries = raw
      .split(',')
      .map((e) => e.trim())
      .filter(Boolean);
    const bad = entries.filter((e) => {
      if (e === '*') return false;
      try {
        const u = new URL(e);
        return !['http:', 'https:'].includes(u.protocol) || u.origin !== e;
      } catch {
        return true;
      }
    });
    if (bad.length) {
      ctx.addIssue({
        code: 'custom',
        message: `exact origins like https://app.example.com (no path, no trailing slash), or *: ${bad.join(', ')}`,
      });
      return z.NEVER;
    }
    return entries;
  });

/** Exact origins (`https://img.example.com`: scheme, host, optional port), comma-separated. */
const exactOrigins = z
  .string()
  .default('')
  .transform((raw, ctx): string[] => {
    const entries = raw
      .split(',')
      .map((e) => e.trim())
      .filter(Boolean);
    const bad = entries.filter((e) => {
      try {
        const u = new URL(e);
        return !['http:', 'https:'].includes(u.protocol) || u.origin !== e;
      } catch {
        return true;
      }
    });
    if (bad.length) {
      ctx.addIssue({
        code: 'custom',
        message: `exact origins like https://img.example.com (no path, no trailing slash): ${bad.join(', ')}`,
      });
      return z.NEVER;
    }
    return entries;
  });

/**
 * Signing and encryption keys. Unset in development, each takes its own random value from
 * `.data/secrets.env`; production (or any non-loopback HOST) must give them (`loadConfig`).
 */
const secret = z
  .string()
  .refine((v) => Buffer.byteLength(v, 'utf8') >= SECRET_MIN_BYTES, `must be at least ${SECRET_MIN_BYTES} bytes`);

/**
 * Every setting of every process, in one place. Names are the environment variables.
 * Limits that the spec leaves open take the values of DESIGN.md (G8a–G8c).
 */
export const envSchema = z.object({
  APP_ENV: z.enum(['development', 'test', 'production']).default('development'),
  HOST: z.string().default('127.0.0.1'),
  PORT: int(8080, 0, 65535),
  /**
   * Listen with SO_REUSEPORT: several processes of the same app on one HOST:PORT, the kernel
   * spreading connections between them (a second read API process on a machine whose engine
   * leaves CPU free). Off by default: a second process on a taken port should fail, not share it.
   */
  HTTP_REUSE_PORT: bool.default(false),
  /**
   * The base URL clients reach this API at (scheme, host, optional port and path prefix), for the
   * absolute URLs it hands out (`avatar_url`, `/v1/config` map resources, `/v1/nodes` origin);
   * never taken from a request's Host header. Required in production; elsewhere
   * `http://HOST:PORT` (the address the server listens on).
   */
  PUBLIC_BASE_URL: url(['http:', 'https:']).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  TRUST_PROXY: trustProxy,
  /** In development, also any `http://localhost:*` and `http://127.0.0.1:*` (a local web client). */
  CORS_ORIGINS: corsOrigins,
  /** How long a browser may keep a preflight answer (`Access-Control-Max-Age`). */
  CORS_MAX_AGE_S: int(600, 0, 86_400),
  /**
   * Answers (JSON, text) of this many bytes and more go Brotli- or gzip-coded to a client that
   * accepts it; smaller ones gain less than the coding costs.
   */
  COMPRESSION_MIN_BYTES: int(1024, 0),
  /**
   * `Strict-Transport-Security: max-age=…` on every answer when PUBLIC_BASE_URL is https (issue 32
   * point 8): a browser that has seen the API once never speaks plain HTTP to it again. One year
   * by default; 0 tells browsers to forget it (before moving off HTTPS).
   */
  HSTS_MAX_AGE_S: int(31_536_000, 0, 63_072_000),
  /**
   * `/metrics` (per-route counts, queue depths) is for the operator's scraper, not the public
   * (issue 32 point 8). Set: it answers only with `Authorization: Bearer <METRICS_TOKEN>`. Unset:
   * open on a development checkout listening on loopback, not served at all (404) where the
   * secrets must be given (production, or any host other than loopback).
   */
  METRICS_TOKEN: secret.optional(),
  /**
   * Origins the web page may show images from besides its own (listing photos kept on another
   * host, a CDN): exact origins like `https://img.example.com`, comma-separated. The page's CSP
   * also allows the files origin (ORIGIN_FILES_URL) and the map provider's (MAP_UPSTREAM_URL).
   */
  WEB_IMAGE_ORIGINS: exactOrigins,

  DATABASE_URL: url(['postgres:', 'postgresql:']).default('postgres://postgres@127.0.0.1:5432/guest'),
  DATABASE_POOL_MAX: int(10, 1, 200),
  REDIS_URL: url(['redis:', 'rediss:']).default('redis://127.0.0.1:6379'),
  REDIS_KEY_PREFIX: z.string().default('guest:'),
  /** The search engine behind SEARCH_URL; both are driven through the same portable subset. */
  SEARCH_ENGINE: z.enum(['opensearch', 'elasticsearch']).default('opensearch'),
  /**
   * Where the engine answers. Unset: OPENSEARCH_URL from the same source (environment, stack
   * file, overrides) stands for it, else the stack's port for the engine (9200 OpenSearch, 9250
   * Elasticsearch).
   */
  SEARCH_URL: url(['http:', 'https:']).default('http://127.0.0.1:9200'),
  /** The older name of SEARCH_URL, still read for OpenSearch setups that set only it. */
  OPENSEARCH_URL: url(['http:', 'https:']).optional(),
  INDEX_PREFIX: z
    .string()
    .regex(/^[a-z0-9_-]+$/, 'lowercase letters, digits, - and _ only')
    .default('guest'),
  /**
   * Replica copies of every index shard, set when an index is created (first start of the worker,
   * every `indexer reindex`). 0 for one node; at least 1 on a cluster, so that losing a node loses
   * no shard. Green needs more nodes than this; existing indices change at the next reindex.
   */
  INDEX_REPLICAS: int(0, 0, 20),

  STORAGE_DIR: z.string().default('.data/files'),
  MAILBOX_DIR: z.string().default('.data/mailbox'),
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default('Guest API <no-reply@localhost>'),

  /**
   * Signs and verifies the access tokens of the guest API (audience `guest-api`, DESIGN G5b): the
   * write API, the read API and the socket gateway share it, deployed together or alone.
   */
  JWT_SECRET: secret,
  CURSOR_SECRET: secret,
  /** Encrypts the replies kept for `Idempotency-Key` (they can hold tokens) and keys their request digests. */
  IDEMPOTENCY_SECRET: secret,
  TOKEN_ISSUER: z.string().default('guest-api'),
  ACCESS_TOKEN_TTL_S: int(900, 30, 86_400),
  /** Longest `exp - iat` an access token may claim; a longer-lived one is refused even when well signed. */
  ACCESS_TOKEN_MAX_LIFETIME_S: int(900, 30, 86_400),
  /** How far in the future `iat` may lie (clocks of two servers disagree a little). */
  TOKEN_CLOCK_SKEW_S: int(30, 0, 300),

  RATE_LIMIT_ADDRESS_PER_MIN: int(600, 1),
  /**
   * Per-address limits (the general one, login, captcha, registration, email availability,
   * password reset, map) count an IPv6 client by this many leading bits of its address, an IPv4
   * client by its whole address (issue 32 point 6): one subscriber or server holds a whole /64
   * and can pick any address in it. 64 by default; 48 or 56 where providers hand out larger blocks.
   */
  RATE_LIMIT_IPV6_PREFIX: int(64, 16, 128),
  RATE_LIMIT_ACTOR_PER_MIN: int(300, 1),
  RATE_LIMIT_EMAIL_AVAILABILITY_PER_MIN: int(10, 1),
  RATE_LIMIT_LOGIN_PER_MIN: int(10, 1),
  RATE_LIMIT_PASSWORD_RESET_PER_HOUR: int(3, 1),

  BODY_LIMIT_BYTES: int(1_048_576, 1024),
  MAX_UPLOAD_MB: int(10, 1, 100),
  MAX_IMAGE_MEGAPIXELS: int(40, 1, 500),
  /**
   * HEIC has a lower cap (issue 32 point 5): libheif decodes in WebAssembly at about 11 bytes a
   * pixel and up to 2 s for 40 MP. 24 MP takes the photos of today's phones (12-24 MP, iPhone's
   * 48 MP "HEIF Max" excepted); larger ones are refused from their container dimensions.
   */
  MAX_HEIC_MEGAPIXELS: int(24, 1, 500),
  /**
   * Threads of the write API that decode uploaded images, off the event loop (issue 32 point 5),
   * and the uploads that may wait for one; one more is refused with 503 `unavailable` and
   * Retry-After (UNAVAILABLE_RETRY_AFTER_S). A HEIC decode holds up to about 300 MiB at
   * MAX_HEIC_MEGAPIXELS and one core: one thread by default, so that a burst of uploads leaves the
   * other cores to the event loop; size it to the memory as well as the cores.
   */
  IMAGE_POOL_SIZE: int(1, 1, 64),
  IMAGE_POOL_QUEUE: int(8, 0, 10_000),
  /**
   * Threads that estimate password strength (zxcvbn: up to a few hundred ms for a long password)
   * off the event loop, apart from the images so that uploads never hold up a sign-up, and the
   * checks that may wait; one more is refused with 503 like an image.
   */
  PASSWORD_POOL_SIZE: int(1, 1, 64),
  PASSWORD_POOL_QUEUE: int(64, 0, 10_000),
  IDEMPOTENCY_TTL_H: int(24, 1, 720),
  SEARCH_LIMIT_DEFAULT: int(20, 1, 100),
  SEARCH_LIMIT_MAX: int(100, 1, 1000),
  CALENDAR_DAYS_DEFAULT: int(14, 1, 366),
  CALENDAR_DAYS_MAX: int(62, 1, 366),
  MAP_MAX_POINTS: int(500, 1, 10_000),
  /** Search suggest (spec 4.7): at most this many places and this many listings. */
  SEARCH_SUGGEST_LIMIT: int(5, 1, 20),
  /**
   * When fewer listings than this match `q` exactly, the feed (relevance order, or the order the
   * intents of `q` ask for) continues with related ones (the place's region, the kind of the
   * category or property type named), marked `related`; 0 never adds any.
   */
  SEARCH_RELATED_BELOW: int(10, 0, 1000),

  MAP_UPSTREAM_URL: z.string().default('https://tiles.invalid'),
  MAP_UPSTREAM_TIMEOUT_MS: int(5000, 100, 60_000),
  SHUTDOWN_GRACE_MS: int(10_000, 0, 120_000),

  // Failing dependencies (DESIGN.md section 6): a dependency that is down is a fast 503, never a wait.
  /** Longest wait for a Redis connection; commands fail at once while it is down (no offline queue). */
  REDIS_CONNECT_TIMEOUT_MS: int(1000, 50, 60_000),
  /** A Redis command that has not answered after this long fails (a Redis that hangs, not one that is down). */
  REDIS_COMMAND_TIMEOUT_MS: int(1000, 10, 60_000),
  /** Longest wait for a Postgres connection (a new one, or a free one of the pool). */
  DATABASE_CONNECT_TIMEOUT_MS: int(5000, 100, 120_000),
  /** Longest wait for one search engine request. */
  SEARCH_REQUEST_TIMEOUT_MS: int(10_000, 100, 600_000),
  /** `Retry-After` of 503 `unavailable` when Postgres, Redis or the search engine does not answer. */
  UNAVAILABLE_RETRY_AFTER_S: int(5, 1, 3600),

  // Hostile input: bounds of every JSON body, checked before its schema (so also for stored free-form JSON).
  /** Deepest nesting of objects and arrays in a JSON body. */
  JSON_MAX_DEPTH: int(16, 2, 256),
  /** Most items in one array of a JSON body. */
  JSON_MAX_ARRAY_ITEMS: int(1000, 1, 1_000_000),

  // Catalog and indexer (indexer/): import batches, outbox drain, retries, event horizon.
  CATALOG_IMPORT_BATCH: int(1000, 1, 50_000),
  INDEXER_BATCH_SIZE: int(500, 1, 10_000),
  /** How often an idle indexer worker asks pg-boss for a `catalog-changes` job (pg-boss' floor is 500 ms). */
  INDEXER_POLL_MS: int(500, 500, 60_000),
  INDEXER_RETRY_BASE_MS: int(1000, 0, 600_000),
  INDEXER_RETRY_MAX_MS: int(300_000, 0, 86_400_000),
  INDEXER_MAX_ATTEMPTS: int(8, 1, 100),
  /** Documents per `_bulk` request of a full reindex: every request but the last is full, across source pages. */
  INDEXER_REINDEX_BULK_DOCS: int(1000, 1, 20_000),
  /**
   * The worker refreshes the indices it wrote to after each batch of changes, so a change is
   * visible as soon as it is applied instead of at the next scheduled refresh (up to the 1 s
   * refresh interval later). One refresh per batch, not per change.
   */
  INDEXER_REFRESH_AFTER_BATCH: bool.default(true),
  /** `_bulk` requests a full reindex keeps in flight at once (the engine answers 429 when it is full: retried). */
  INDEXER_REINDEX_CONCURRENCY: int(2, 1, 16),
  INDEXER_STATS_LOG_MS: int(30_000, 1000, 3_600_000),
  INDEXER_OLD_INDEX_GRACE_MS: int(2000, 0, 600_000),
  EVENTS_HORIZON_DAYS: int(180, 1, 730),
  /** Days from today the listing page's calendar covers: its blocked ranges and the dates it prices. */
  LISTING_CALENDAR_DAYS: int(365, 1, 730),
  /** Most days between `date_from` and `date_to` the listing page prices at once. */
  LISTING_RANGE_MAX_DAYS: int(180, 1, 730),
  DEMO_LISTINGS: int(2000, 0, 1_000_000),
  DEMO_EVENTS: int(150, 0, 100_000),
  DEMO_SEED: int(20261121, 0),
  /** Where the read API keeps the demo catalog's photos once drawn (`/demo-photos/v1/*`). */
  DEMO_PHOTOS_DIR: z.string().default('.data/demo-photos'),
  /** Port of the realtime gateway; the all-in-one server passes `/v1/ws` upgrades to it. */
  REALTIME_PORT: int(8081, 0, 65535),
  /** How long before a socket's token lapses it is told so (`auth.expiring`), to renew in time. */
  WS_EXPIRY_WARNING_S: int(60, 1, 3600),

  // Accounts, sign-in and sessions (spec sections 4.1 and 5; DESIGN G5a-G5d, G8a).
  // argon2id: never below OWASP's minimum (19 MiB, 2 iterations, 1 lane).
  ARGON2_MEMORY_KIB: int(19_456, 19_456, 1_048_576),
  ARGON2_ITERATIONS: int(2, 2, 20),
  ARGON2_PARALLELISM: int(1, 1, 16),
  SESSION_IDLE_TTL_D: int(30, 1, 365),
  SESSION_ABSOLUTE_TTL_D: int(180, 1, 3650),
  WS_TICKET_TTL_S: int(60, 5, 600),
  EMAIL_CONFIRM_TTL_H: int(48, 1, 720),
  PASSWORD_RESET_TTL_MIN: int(60, 5, 1440),
  ACCOUNT_DELETE_TTL_MIN: int(60, 5, 1440),
  /** Test stand (spec 5.9): comma-separated emails and domains allowed to sign in; empty = everyone. */
  SIGNIN_ALLOWLIST: z.string().default(''),
  /**
   * Where the links in account emails point: the web client's pages (`/account/confirm-email`,
   * `/account/reset-password`, `/account/delete-confirm`). Unset: PUBLIC_BASE_URL, else the
   * address the server listens on (`http://HOST:PORT`), where the one-base-URL server serves them.
   */
  APP_LINK_BASE_URL: url(['http:', 'https:']).optional(),
  RATE_LIMIT_RESEND_CONFIRMATION_PER_HOUR: int(3, 1),
  RATE_LIMIT_PASSWORD_CHANGE_PER_HOUR: int(10, 1),
  RATE_LIMIT_CAPTCHA_PER_MIN: int(30, 1),
  CAPTCHA_TTL_S: int(120, 10, 3600),
  CAPTCHA_TOLERANCE_PX: int(4, 0, 20),
  /**
   * The captcha's proof of work (issue 32 point 2, ALTCHA PoW v2 with PBKDF2-HMAC-SHA-256): each
   * counter tried costs CAPTCHA_POW_COST iterations (about 1 ms of one core of a server for 5,000),
   * and the counter is drawn below CAPTCHA_POW_COUNTERS at the first level, twice that at each
   * level above, up to CAPTCHA_POW_MAX_LEVEL. A level is added by each failure of the account or
   * the address past the threshold at which a captcha is demanded. At the first level a script
   * spends 2.2 CPU-seconds on average (4,400 counters at most) and a phone spreads the work over
   * its cores while the person slides the piece.
   */
  CAPTCHA_POW_COST: int(5000, 1, 1_000_000),
  CAPTCHA_POW_COUNTERS: int(4400, 1, 10_000_000),
  CAPTCHA_POW_MAX_LEVEL: int(6, 1, 20),
  /** Failed logins within CAPTCHA_FAILURE_WINDOW_S after which a captcha is demanded. */
  CAPTCHA_AFTER_FAILED_LOGINS_PER_EMAIL: int(3, 1),
  CAPTCHA_AFTER_FAILED_LOGINS_PER_ADDRESS: int(5, 1),
  CAPTCHA_FAILURE_WINDOW_S: int(900, 60),
  /**
   * Per-account back-off on failed logins (issue 14 point 3), counted per email whether or not an
   * account has it, and whatever the address: after LOGIN_BACKOFF_FREE_FAILURES failures each
   * further one closes sign-in to the email for LOGIN_BACKOFF_BASE_S, doubling up to
   * LOGIN_BACKOFF_MAX_S (429 with Retry-After meanwhile, even for the right password). Each
   * attempt is counted, atomically, before its password is checked (issue 32), so requests sent
   * together get no more guesses than requests sent one by one: FREE_FAILURES + 1 before the first
   * back-off, then one per back-off. Failures are forgotten LOGIN_FAILURE_MEMORY_S after the last
   * one, or at a successful sign-in or reset; never at the end of a back-off.
   */
  LOGIN_BACKOFF_FREE_FAILURES: int(3, 0, 100),
  LOGIN_BACKOFF_BASE_S: int(30, 1, 3600),
  LOGIN_BACKOFF_MAX_S: int(900, 1, 86_400),
  LOGIN_FAILURE_MEMORY_S: int(86_400, 60, 30 * 86_400),
  /** Failures (within the memory) after which the owner is mailed once that someone is trying. */
  LOGIN_LOCKOUT_NOTICE_AFTER: int(10, 1, 1000),
  /** Registrations from one address within the hour after which a captcha is demanded. */
  CAPTCHA_AFTER_REGISTRATIONS_PER_ADDRESS: int(3, 1),
  /** Password-reset and deletion requests within the hour after which a captcha is demanded. */
  CAPTCHA_AFTER_RESET_REQUESTS_PER_ADDRESS: int(5, 1),
  CAPTCHA_AFTER_DELETE_REQUESTS_PER_ACCOUNT: int(3, 1),
  /** Run the mail workers inside this process (pg-boss queues `mail.deliver`, `auth.password-reset`). */
  MAIL_WORKER: bool.default(true),
  JOBS_SCHEMA: z
    .string()
    .regex(/^[a-z_][a-z0-9_]*$/)
    .default('pgboss'),

  // Read API reference data (spec 4.4-4.6): map, nodes, /v1/config, localization.
  /** Base URL (scheme + host) of the main server's API, served as `origin.api_url`; default: PUBLIC_BASE_URL, else the request's own origin. */
  ORIGIN_API_URL: url(['http:', 'https:']).optional(),
  /** Base URL of the main server's file delivery, served as `origin.files_url`; default: the origin's API URL. */
  ORIGIN_FILES_URL: url(['http:', 'https:']).optional(),
  MAP_START_LAT: z.coerce.number().min(-85).max(85).default(7.8804),
  MAP_START_LON: z.coerce.number().min(-180).max(180).default(98.3923),
  MAP_START_ZOOM: z.coerce.number().min(0).max(22).default(10),
  MAP_MIN_ZOOM: int(2, 0, 22),
  /** Also the largest tile zoom the map proxy passes to the upstream. */
  MAP_MAX_ZOOM: int(18, 0, 22),
  MAP_TILE_FORMAT: z.enum(['pbf', 'png', 'webp']).default('pbf'),
  MAP_RELIEF_FORMAT: z.enum(['png', 'webp']).default('png'),
  /** Map resources have their own per-address budget: a map view loads dozens of tiles at once. */
  MAP_RATE_LIMIT_PER_MIN: int(3000, 1),
  /** Fallback list for `/v1/config` `currencies` when the catalog has no currencies yet. */
  CURRENCIES: z
    .string()
    .regex(/^[A-Z]{3}(,[A-Z]{3})*$/, 'comma-separated ISO 4217 codes, e.g. THB,USD')
    .default('THB,USD,EUR,RUB,CNY')
    .transform((v) => v.split(',')),
  ONLINE_PAYMENTS_ENABLED: bool.default(false),
  SERVICE_FEE_PERCENT: z.coerce.number().min(0).max(100).default(0),
  REVIEW_WINDOW_DAYS: int(14, 1, 365),
  ASSISTANT_ENABLED: bool.default(false),
  UPCOMING_DAYS_DEFAULT: int(30, 1, 180),
  /** Dictionaries of interface strings, one `<lang>.json` each; relative to the repository root. */
  I18N_DIR: z.string().default('i18n'),
  I18N_CACHE_MAX_AGE_S: int(300, 0, 86_400),
  /** Cache-Control max-age of /v1/config, /v1/nodes and /v1/i18n/languages. */
  REFERENCE_CACHE_MAX_AGE_S: int(60, 0, 86_400),
  /** `/v1/config` `region`: the nearest place centre to the map start counts only within this distance. */
  MAP_REGION_MATCH_KM: int(150, 1, 2000),

  // Profile, preferences and private files (spec 4.2, 4.3; DESIGN G8b).
  /** Longest side of a stored avatar, in pixels; larger photos are scaled down. */
  AVATAR_MAX_SIDE_PX: int(1024, 64, 4096),
  AVATAR_JPEG_QUALITY: int(85, 30, 100),
  /** Spec 3 and 8: a file ticket lives 60 seconds and is single use. */
  MEDIA_TICKET_TTL_S: int(60, 5, 600),
  /** Pages of `/v1/me/favorites`. */
  FAVORITES_LIMIT_DEFAULT: int(20, 1, 100),
  FAVORITES_LIMIT_MAX: int(100, 1, 100),
  /** Spec 8: `limit` of `/v1/me/transactions` is 1 to 100. */
  TRANSACTIONS_LIMIT_DEFAULT: int(20, 1, 100),
  TRANSACTIONS_LIMIT_MAX: int(100, 1, 100),
  /** Largest JSON of one saved search-filter section, in bytes. */
  SEARCH_FILTER_SECTION_MAX_BYTES: int(8192, 256, 65_536),

  // Read API places, categories, amenities and events (spec 4.5, 4.8; DESIGN G4b, G8c).
  /** Next occurrences shown on an event's page. */
  EVENT_PAGE_OCCURRENCES: int(10, 1, 100),
  /** Places in `GET /v1/places/popular`. */
  PLACES_POPULAR_LIMIT: int(20, 1, 200),
  /** In-memory cache of small reference lists read from Postgres (categories, amenities); 0 = off. */
  REFERENCE_LIST_CACHE_TTL_S: int(60, 0, 86_400),

  // Result cache of the search routes (map, count, price range, suggest, first feed pages).
  /**
   * Longest life of a cached engine answer, in ms; 0 = no cache. Answers also end as soon as the
   * index generation changes (a refresh made a change visible), whatever their age.
   */
  SEARCH_CACHE_TTL_MS: int(30_000, 0, 600_000),
  /** Engine answers the cache holds at most (the oldest go first). */
  SEARCH_CACHE_MAX_ENTRIES: int(5000, 1, 1_000_000),
  /**
   * How often the index generation is read from the engine, in ms. A cached answer is served
   * only while the last reading is younger than this plus 150 ms, so no answer outlives the
   * refresh that changed it by more than that (250 ms at the default).
   */
  SEARCH_CACHE_GENERATION_POLL_MS: int(100, 10, 1000),
  /**
   * Cluster cells of map tiles kept for moved maps (a tile wholly inside a box clusters the same
   * in every box that holds it), in tiles of all filter sets together (about 200 bytes each);
   * they live as long as engine answers do.
   */
  SEARCH_CLUSTER_TILES_MAX: int(100_000, 1, 10_000_000),
  /**
   * Memory for whole anonymous answers of the search routes (a repeated view is sent as kept,
   * without validation, engine call or serialization), in MiB; they live as long as engine
   * answers do (`SEARCH_CACHE_TTL_MS`, and the index generation).
   */
  SEARCH_RESPONSE_CACHE_MAX_MB: int(64, 1, 4096),
});

export type Env = z.infer<typeof envSchema>;
