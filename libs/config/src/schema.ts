import { z } from 'zod';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');
const int = (def: number, min = 0, max = Number.MAX_SAFE_INTEGER) =>
  z.coerce.number().int().min(min).max(max).default(def);
const url = (protocols: string[]) =>
  z.string().refine((v) => {
    try {
      return protocols.includes(new URL(v).protocol);
    } catch {
      return false;
    }
  }, `must be a URL with scheme ${protocols.join(' or ')}`);

/** Development-only secrets: production must set its own (checked in `loadConfig`). */
const DEV_SECRET = 'development-only-secret-change-me-0123456789';
const secret = z.string().min(32, 'must be at least 32 characters').default(DEV_SECRET);

/**
 * Every setting of every process, in one place. Names are the environment variables.
 * Limits that the spec leaves open take the values of DESIGN.md (G8a–G8c).
 */
export const envSchema = z.object({
  APP_ENV: z.enum(['development', 'test', 'production']).default('development'),
  HOST: z.string().default('127.0.0.1'),
  PORT: int(8080, 0, 65535),
  PUBLIC_BASE_URL: z.string().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  TRUST_PROXY: bool.default(false),

  DATABASE_URL: url(['postgres:', 'postgresql:']).default('postgres://postgres@127.0.0.1:5432/guest'),
  DATABASE_POOL_MAX: int(10, 1, 200),
  REDIS_URL: url(['redis:', 'rediss:']).default('redis://127.0.0.1:6379'),
  REDIS_KEY_PREFIX: z.string().default('guest:'),
  OPENSEARCH_URL: url(['http:', 'https:']).default('http://127.0.0.1:9200'),
  INDEX_PREFIX: z
    .string()
    .regex(/^[a-z0-9_-]+$/, 'lowercase letters, digits, - and _ only')
    .default('guest'),

  STORAGE_DIR: z.string().default('.data/files'),
  MAILBOX_DIR: z.string().default('.data/mailbox'),
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default('Guest API <no-reply@localhost>'),

  JWT_SECRET_WRITE: secret,
  JWT_SECRET_READ: secret,
  JWT_SECRET_SOCKET: secret,
  CURSOR_SECRET: secret,
  TOKEN_ISSUER: z.string().default('guest-api'),
  ACCESS_TOKEN_TTL_S: int(900, 30, 86_400),

  RATE_LIMIT_ADDRESS_PER_MIN: int(600, 1),
  RATE_LIMIT_ACTOR_PER_MIN: int(300, 1),
  RATE_LIMIT_EMAIL_AVAILABILITY_PER_MIN: int(10, 1),
  RATE_LIMIT_LOGIN_PER_MIN: int(10, 1),
  RATE_LIMIT_PASSWORD_RESET_PER_HOUR: int(3, 1),

  BODY_LIMIT_BYTES: int(1_048_576, 1024),
  MAX_UPLOAD_MB: int(10, 1, 100),
  MAX_IMAGE_MEGAPIXELS: int(40, 1, 500),
  IDEMPOTENCY_TTL_H: int(24, 1, 720),
  SEARCH_LIMIT_DEFAULT: int(20, 1, 100),
  SEARCH_LIMIT_MAX: int(100, 1, 1000),
  CALENDAR_DAYS_DEFAULT: int(14, 1, 366),
  CALENDAR_DAYS_MAX: int(62, 1, 366),
  MAP_MAX_POINTS: int(500, 1, 10_000),

  MAP_UPSTREAM_URL: z.string().default('https://tiles.invalid'),
  MAP_UPSTREAM_TIMEOUT_MS: int(5000, 100, 60_000),
  SHUTDOWN_GRACE_MS: int(10_000, 0, 120_000),
});

export type Env = z.infer<typeof envSchema>;
export { DEV_SECRET };
