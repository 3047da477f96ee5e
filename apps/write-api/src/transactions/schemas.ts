import { z } from 'zod';
import { cursorParam, limitParam, pageOf } from '@guest/http-kit';
import { TRANSACTION_KINDS, TRANSACTION_STATES } from '@guest/db/schema';
import { IANAZone } from 'luxon';

export const DEFAULT_SUMMARY_TIMEZONE = 'Asia/Bangkok';

const Money = z
  .object({ amount_minor: z.number().int(), currency: z.string() })
  .meta({ id: 'MoneyTotal', description: 'An amount in minor units with its currency.' });

export const TransactionResponse = z
  .object({
    id: z.string().meta({ description: '`pay_…` for a payment, `ref_…` for a refund.' }),
    kind: z.enum(TRANSACTION_KINDS),
    state: z.enum(TRANSACTION_STATES),
    amount_minor: z.number().int().meta({ description: 'Payment amount, minor units of `currency`.' }),
    currency: z.string(),
    order_amount_minor: z.number().int().meta({ description: 'Order amount, minor units of `order_currency`.' }),
    order_currency: z.string(),
    exchange_rate: z.string().meta({ description: 'Order currency → payment currency, as a decimal string.' }),
    method: z.string().meta({ description: 'Payment method, e.g. `card`, `bank_transfer`, `qr`.' }),
    bank_operation_id: z.string().nullable().meta({ description: "The bank's operation number." }),
    refund_of: z.string().nullable().meta({ description: 'For a refund: the payment it returns.' }),
    occurred_at: z.string().meta({ description: "Time of the operation in the place's zone, with its offset." }),
    timezone: z.string().meta({ description: "The place's IANA zone." }),
    target: z
      .object({ type: z.string(), id: z.string(), title: z.string().nullable() })
      .meta({ id: 'TransactionTarget', description: 'What the money was for (a booking).' }),
  })
  .meta({ id: 'TransactionResponse' });

export const TransactionsSummary = z
  .object({
    month: z.string().meta({ description: 'The current month, `YYYY-MM`, in `timezone`.' }),
    timezone: z.string(),
    paid: z.array(Money).meta({ description: 'Payments completed this month, per currency.' }),
    refunded: z.array(Money).meta({ description: 'Refunds completed this month, per currency.' }),
  })
  .meta({ id: 'TransactionsSummary' });

export const TransactionsPage = pageOf(TransactionResponse)
  .extend({ summary: TransactionsSummary })
  .meta({ id: 'TransactionsPage' });

export const TRANSACTION_TYPES = ['all', 'payments', 'refunds'] as const;

export function transactionsQuery(limitDefault: number, limitMax: number) {
  return z.object({
    type: z.enum(TRANSACTION_TYPES).default('all'),
    cursor: cursorParam,
    limit: limitParam(limitDefault, limitMax),
    timezone: z
      .string()
      .refine(
        (v) => IANAZone.isValidZone(v) && !/^[+-]|^UTC[+-]/i.test(v),
        'must be an IANA time zone, e.g. Asia/Bangkok',
      )
      .default(DEFAULT_SUMMARY_TIMEZONE)
      .meta({ description: 'Zone of "this month" in `summary`; default `Asia/Bangkok`.' }),
  });
}

export const TransactionParams = z.object({ tx_id: z.string().min(1).max(64) });
