import { z } from 'zod';
import { DateTime } from 'luxon';
import { sql } from 'drizzle-orm';
import { errors } from '@guest/http-kit';
import type { WriteDeps } from '../deps.ts';
import type { TransactionResponse, TransactionsPage, TRANSACTION_TYPES } from './schemas.ts';

/** A payment or refund as the API shows it. */
type Transaction = z.infer<typeof TransactionResponse>;
type Row = {
  id: string;
  kind: Transaction['kind'];
  state: Transaction['state'];
  amount_minor: number;
  currency: string;
  order_amount_minor: number;
  order_currency: string;
  exchange_rate: string;
  method: string;
  bank_operation_id: string | null;
  refund_of: string | null;
  target: Transaction['target'];
  timezone: string;
  occurred_at: string;
  at: string;
};

const COLUMNS =
  sql.raw(`id, kind, state, amount_minor, currency, order_amount_minor, order_currency, trim_scale(exchange_rate)::text as exchange_rate,
  method, bank_operation_id, refund_of, target, timezone, occurred_at, occurred_at::text as at`);

/** The instant shown in the place's own zone, with its offset (spec: object time in the object's zone). */
export function localTime(at: Date, zone: string): string {
  return DateTime.fromJSDate(at, { zone }).toISO({ suppressMilliseconds: true }) ?? at.toISOString();
}

function toResponse(r: Row): Transaction {
  return {
    id: r.id,
    kind: r.kind,
    state: r.state,
    amount_minor: r.amount_minor,
    currency: r.currency,
    order_amount_minor: r.order_amount_minor,
    order_currency: r.order_currency,
    exchange_rate: r.exchange_rate,
    method: r.method,
    bank_operation_id: r.bank_operation_id,
    refund_of: r.refund_of,
    occurred_at: localTime(new Date(r.occurred_at), r.timezone),
    timezone: r.timezone,
    target: r.target,
  };
}

/** First instant of the current month in `zone`, and of the next one. */
export function monthBounds(now: Date, zone: string): { month: string; from: Date; to: Date } {
  const start = DateTime.fromJSDate(now, { zone }).startOf('month');
  return { month: start.toFormat('yyyy-MM'), from: start.toJSDate(), to: start.plus({ months: 1 }).toJSDate() };
}

type Cursor = { at: string; id: string };
const SCOPE = 'transactions';
const KIND_OF: Record<(typeof TRANSACTION_TYPES)[number], string | null> = {
  all: null,
  payments: 'booking_payment',
  refunds: 'booking_refund',
};

/** The payments and refunds of an account (`/v1/me/transactions`), written by the payments side. */
export function createTransactionsService({
  database,
  cursors,
  clock,
}: Pick<WriteDeps, 'database' | 'cursors' | 'clock'>) {
  const { db } = database;
  return {
    /** Newest first, cursor-paged, with this month's completed totals per currency in `q.timezone`. */
    async list(
      accountId: string,
      q: { type: (typeof TRANSACTION_TYPES)[number]; cursor?: string | undefined; limit: number; timezone: string },
    ): Promise<z.infer<typeof TransactionsPage>> {
      const now = clock.now();
      // The filter is part of the cursor's scope: a cursor of another filter is refused, not misread.
      const scope = `${SCOPE}:${q.type}`;
      const after = q.cursor ? cursors.decode<Cursor>(scope, q.cursor) : null;
      const kind = KIND_OF[q.type];
      const { rows } = await db.execute<Row>(sql`
        select ${COLUMNS} from transactions
         where account_id = ${accountId} and (${kind}::text is null or kind = ${kind}::text)
           and (${after?.at ?? null}::timestamptz is null
                or (occurred_at, id) < (${after?.at ?? null}::timestamptz, ${after?.id ?? null}::text))
         order by occurred_at desc, id desc
         limit ${q.limit + 1}`);
      const { month, from, to } = monthBounds(now, q.timezone);
      const totals = await db.execute<{ kind: string; currency: string; amount_minor: number }>(sql`
        select kind, currency, sum(amount_minor)::bigint as amount_minor from transactions
         where account_id = ${accountId} and state = 'paid' and occurred_at >= ${from} and occurred_at < ${to}
         group by kind, currency order by currency`);
      const pick = (kind: string) =>
        totals.rows.filter((t) => t.kind === kind).map((t) => ({ currency: t.currency, amount_minor: t.amount_minor }));
      const page = rows.slice(0, q.limit);
      const last = page[page.length - 1];
      const hasMore = rows.length > q.limit;
      return {
        items: page.map(toResponse),
        next_cursor: hasMore && last ? cursors.encode(scope, { at: last.at, id: last.id } satisfies Cursor) : null,
        has_more: hasMore,
        summary: { month, timezone: q.timezone, paid: pick('booking_payment'), refunded: pick('booking_refund') },
      };
    },

    /** One operation of the caller; another person's is 404, the same as one that does not exist. */
    async get(accountId: string, transactionId: string): Promise<Transaction> {
      const { rows } = await db.execute<Row>(
        sql`select ${COLUMNS} from transactions where id = ${transactionId} and account_id = ${accountId}`,
      );
      if (!rows[0]) throw errors.notFound('No such transaction of yours.');
      return toResponse(rows[0]);
    },
  };
}

export type TransactionsService = ReturnType<typeof createTransactionsService>;
