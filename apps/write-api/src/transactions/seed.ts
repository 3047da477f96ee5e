import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { schema, type DbOrTx } from '@guest/db';

const { transactions } = schema;

type NewTransaction = typeof transactions.$inferInsert;

const newId = (prefix: 'pay' | 'ref') => `${prefix}_${randomBytes(10).toString('hex')}`;

/**
 * Demo data for the payments side (which is outside this API): a few bookings paid over the last
 * months, one refunded, one failed and one pending, in Thai baht with orders in other currencies.
 * Returns the ids written. Safe to call again: each call adds a fresh set. Dates count back from `now`.
 */
export async function seedDemoTransactions(db: DbOrTx, accountId: string, now: Date): Promise<string[]> {
  const day = 86_400_000;
  const at = (daysAgo: number, hourUtc: number) =>
    new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), hourUtc) - daysAgo * day);
  const booking = (n: number, title: string) => ({ type: 'booking', id: `bk_demo_${n}`, title });
  const base = { accountId, timezone: 'Asia/Bangkok', method: 'card' };

  const p1 = newId('pay');
  const p2 = newId('pay');
  const p3 = newId('pay');
  const rows: NewTransaction[] = [
    {
      ...base,
      id: p1,
      kind: 'booking_payment',
      state: 'paid',
      amountMinor: 1_250_000,
      currency: 'THB',
      orderAmountMinor: 1_250_000,
      orderCurrency: 'THB',
      exchangeRate: '1',
      bankOperationId: 'OP-100201',
      target: booking(1, 'Sea-view villa, Kata'),
      occurredAt: at(40, 5),
    },
    {
      ...base,
      id: p2,
      kind: 'booking_payment',
      state: 'paid',
      amountMinor: 356_000,
      currency: 'THB',
      orderAmountMinor: 10_000,
      orderCurrency: 'USD',
      exchangeRate: '35.6',
      bankOperationId: 'OP-100388',
      target: booking(2, 'Phi Phi islands boat trip'),
      occurredAt: at(2, 3),
    },
    {
      ...base,
      id: newId('ref'),
      kind: 'booking_refund',
      state: 'paid',
      amountMinor: 178_000,
      currency: 'THB',
      orderAmountMinor: 5_000,
      orderCurrency: 'USD',
      exchangeRate: '35.6',
      bankOperationId: 'OP-100412',
      refundOf: p2,
      target: booking(2, 'Phi Phi islands boat trip'),
      occurredAt: at(1, 9),
    },
    {
      ...base,
      id: p3,
      kind: 'booking_payment',
      state: 'failed',
      amountMinor: 420_000,
      currency: 'THB',
      orderAmountMinor: 420_000,
      orderCurrency: 'THB',
      exchangeRate: '1',
      bankOperationId: null,
      target: booking(3, 'Thai cooking class'),
      occurredAt: at(1, 2),
    },
    {
      ...base,
      id: newId('pay'),
      kind: 'booking_payment',
      state: 'pending',
      amountMinor: 90_000,
      currency: 'THB',
      orderAmountMinor: 90_000,
      orderCurrency: 'THB',
      exchangeRate: '1',
      method: 'qr',
      bankOperationId: null,
      target: booking(3, 'Thai cooking class'),
      occurredAt: at(0, 1),
    },
  ];
  await db.insert(transactions).values(rows.map((r) => ({ ...r, createdAt: sql`now()` })));
  return rows.map((r) => r.id);
}
