import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

export const ACCOUNT_STATUSES = ['active', 'restricted', 'pending_deletion', 'deleted'] as const;
export const RESTRICTION_KINDS = ['login', 'booking', 'messaging', 'reviews'] as const;
export const EMAIL_TOKEN_PURPOSES = ['confirm_email', 'password_reset', 'delete_account'] as const;

/**
 * A guest's account. `email` is stored lower-cased; it and the names are erased (null / empty)
 * when the account is deleted, while the row stays so that records the law keeps (payments)
 * still point at an id that no longer names a person.
 */
export const accounts = pgTable(
  'accounts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    email: text('email'),
    passwordHash: text('password_hash'),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    emailConfirmedAt: timestamp('email_confirmed_at', { withTimezone: true }),
    status: text('status', { enum: ACCOUNT_STATUSES }).notNull().default('active'),
    marketingOptIn: boolean('marketing_opt_in').notNull().default(false),
    termsAcceptedAt: timestamp('terms_accepted_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('accounts_email_uq').on(t.email)],
);

/**
 * One signed-in device. The refresh token is kept only as its SHA-256 (it is 256 random bits,
 * so a slow hash adds nothing). A session is alive while `closed_at` is null and `expires_at`
 * (sliding idle expiry, capped by `absolute_expires_at`) is in the future.
 */
export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    refreshTokenHash: text('refresh_token_hash').notNull(),
    ip: text('ip').notNull(),
    userAgent: text('user_agent'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    absoluteExpiresAt: timestamp('absolute_expires_at', { withTimezone: true }).notNull(),
    closedAt: timestamp('closed_at', { withTimezone: true }),
    closedReason: text('closed_reason'),
  },
  (t) => [
    uniqueIndex('sessions_refresh_token_hash_uq').on(t.refreshTokenHash),
    index('sessions_account_open_idx')
      .on(t.accountId)
      .where(sql`${t.closedAt} is null`),
  ],
);

/** Moderation restrictions; active while `until` is null or in the future and not lifted. */
export const accountRestrictions = pgTable(
  'account_restrictions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    kind: text('kind', { enum: RESTRICTION_KINDS }).notNull(),
    reason: text('reason'),
    until: timestamp('until', { withTimezone: true }),
    liftedAt: timestamp('lifted_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('account_restrictions_account_idx').on(t.accountId)],
);

/** Single-use, expiring tokens sent by email; only their SHA-256 is stored. */
export const emailTokens = pgTable(
  'email_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    purpose: text('purpose', { enum: EMAIL_TOKEN_PURPOSES }).notNull(),
    tokenHash: text('token_hash').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('email_tokens_hash_uq').on(t.tokenHash), index('email_tokens_account_idx').on(t.accountId)],
);

/**
 * Durable mail outbox: a message is written in the same transaction as the change that causes
 * it, together with its delivery job, so a crash can neither lose it nor send it for a change
 * that rolled back. Delivered rows keep `sent_at`; delivery is at-least-once and idempotent.
 */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id').references(() => accounts.id),
    to: text('to').notNull(),
    subject: text('subject').notNull(),
    text: text('text').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
  },
  (t) => [
    index('mail_outbox_unsent_idx')
      .on(t.createdAt)
      .where(sql`${t.sentAt} is null`),
  ],
);
