import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  real,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { accounts, sessions } from './accounts.ts';

export const VERIFICATION_STATUSES = ['none', 'pending', 'verified', 'rejected'] as const;
export const MEDIA_PURPOSES = ['avatar'] as const;
export const DEVICE_PLATFORMS = ['ios', 'android', 'web'] as const;
export const TRANSACTION_KINDS = ['booking_payment', 'booking_refund'] as const;
export const TRANSACTION_STATES = ['paid', 'failed', 'pending'] as const;
export const SEARCH_FILTER_SECTIONS = ['stay', 'experience', 'service', 'map_view'] as const;

export type PrefOverrides = Partial<Record<string, boolean>>;
export type SearchFilterSections = Partial<Record<(typeof SEARCH_FILTER_SECTIONS)[number], Record<string, unknown>>>;

/**
 * A guest's profile beyond the account itself (names, email and status live in `accounts`).
 * One row per account, created on the first write; a missing row reads as all defaults.
 * Preference overrides hold only codes the guest changed: untouched codes follow the registry.
 */
export const profiles = pgTable('profiles', {
  accountId: uuid('account_id')
    .primaryKey()
    .references(() => accounts.id),
  birthDate: date('birth_date'),
  gender: text('gender'),
  phone: text('phone'),
  phoneConfirmedAt: timestamp('phone_confirmed_at', { withTimezone: true }),
  citizenship: text('citizenship'),
  residenceCountry: text('residence_country'),
  billingAddress: text('billing_address'),
  emergencyContact: text('emergency_contact'),
  language: text('language'),
  currency: text('currency'),
  avatarMediaId: uuid('avatar_media_id'),
  verificationStatus: text('verification_status', { enum: VERIFICATION_STATUSES }).notNull().default('none'),
  verifiedAt: timestamp('verified_at', { withTimezone: true }),
  bookingsCount: integer('bookings_count').notNull().default(0),
  ratingAvg: real('rating_avg'),
  ratingCount: integer('rating_count').notNull().default(0),
  /** Master switch of optional emails (`notify_email`); own-action emails are always sent. */
  emailEnabled: boolean('email_enabled').notNull().default(true),
  /** Push master switch: `notify_push` in the profile and `enabled` in the push preferences. */
  pushEnabled: boolean('push_enabled').notNull().default(true),
  emailPrefs: jsonb('email_prefs').$type<PrefOverrides>().notNull().default({}),
  pushPrefs: jsonb('push_prefs').$type<PrefOverrides>().notNull().default({}),
  searchFilters: jsonb('search_filters').$type<SearchFilterSections>().notNull().default({}),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Private files (avatars for now): metadata here, bytes in the file storage under `storage_key`. */
export const mediaFiles = pgTable(
  'media_files',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ownerAccountId: uuid('owner_account_id')
      .notNull()
      .references(() => accounts.id),
    purpose: text('purpose', { enum: MEDIA_PURPOSES }).notNull(),
    storageKey: text('storage_key').notNull(),
    contentType: text('content_type').notNull(),
    sizeBytes: integer('size_bytes').notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [index('media_files_owner_idx').on(t.ownerAccountId)],
);

/**
 * One-time file tickets (spec 3: 60 seconds, single use). Only the SHA-256 of the ticket is kept;
 * a ticket belongs to the session it was issued to and is spent by one atomic update.
 */
export const mediaTickets = pgTable(
  'media_tickets',
  {
    tokenHash: text('token_hash').primaryKey(),
    mediaId: uuid('media_id')
      .notNull()
      .references(() => mediaFiles.id),
    sessionId: uuid('session_id')
      .notNull()
      .references(() => sessions.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [index('media_tickets_expires_idx').on(t.expiresAt)],
);

/** A device's push permission (spec 4.2): pushes go only where permitted and signed in. */
export const devices = pgTable(
  'devices',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    /** The client's own stable id of the installation. */
    deviceId: text('device_id').notNull(),
    sessionId: uuid('session_id').references(() => sessions.id),
    platform: text('platform', { enum: DEVICE_PLATFORMS }).notNull(),
    pushToken: text('push_token'),
    pushPermitted: boolean('push_permitted').notNull(),
    appVersion: text('app_version'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('devices_account_device_uq').on(t.accountId, t.deviceId)],
);

/** In-app notifications; unread while `read_at` is null. */
export const notifications = pgTable(
  'notifications',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    kind: text('kind').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    readAt: timestamp('read_at', { withTimezone: true }),
  },
  (t) => [
    index('notifications_unread_idx')
      .on(t.accountId)
      .where(sql`${t.readAt} is null`),
  ],
);

/** Conversations; who takes part, and up to which message each participant has read. */
export const dialogs = pgTable('dialogs', {
  id: uuid('id').primaryKey().defaultRandom(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export const dialogParticipants = pgTable(
  'dialog_participants',
  {
    dialogId: uuid('dialog_id')
      .notNull()
      .references(() => dialogs.id),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    /** Id of the last message this participant has read; messages after it are unread. */
    lastReadMessageId: bigint('last_read_message_id', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.dialogId, t.accountId] }), index('dialog_participants_account_idx').on(t.accountId)],
);

export const dialogMessages = pgTable(
  'dialog_messages',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    dialogId: uuid('dialog_id')
      .notNull()
      .references(() => dialogs.id),
    senderAccountId: uuid('sender_account_id').references(() => accounts.id),
    body: text('body').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('dialog_messages_dialog_idx').on(t.dialogId, t.id)],
);

/** The assistant's conversation with a guest; assistant messages are unseen while `seen_at` is null. */
export const assistantMessages = pgTable(
  'assistant_messages',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    role: text('role', { enum: ['assistant', 'guest'] }).notNull(),
    body: text('body').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    seenAt: timestamp('seen_at', { withTimezone: true }),
  },
  (t) => [
    index('assistant_messages_unseen_idx')
      .on(t.accountId)
      .where(sql`${t.seenAt} is null`),
  ],
);

/**
 * Payments and refunds (DESIGN G3a), written by the payments side and read-only for guests.
 * Ids start with `pay_` or `ref_`. Amounts are minor units; `occurred_at` is an instant shown in
 * the place's zone `timezone`. `target` names what the money was for (a booking).
 */
export const transactions = pgTable(
  'transactions',
  {
    id: text('id').primaryKey(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    kind: text('kind', { enum: TRANSACTION_KINDS }).notNull(),
    state: text('state', { enum: TRANSACTION_STATES }).notNull(),
    amountMinor: bigint('amount_minor', { mode: 'number' }).notNull(),
    currency: text('currency').notNull(),
    orderAmountMinor: bigint('order_amount_minor', { mode: 'number' }).notNull(),
    orderCurrency: text('order_currency').notNull(),
    exchangeRate: numeric('exchange_rate', { precision: 18, scale: 8 }).notNull(),
    method: text('method').notNull(),
    bankOperationId: text('bank_operation_id'),
    refundOf: text('refund_of'),
    target: jsonb('target').$type<{ type: string; id: string; title: string | null }>().notNull(),
    timezone: text('timezone').notNull(),
    occurredAt: timestamp('occurred_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('transactions_account_occurred_idx').on(t.accountId, t.occurredAt, t.id)],
);
