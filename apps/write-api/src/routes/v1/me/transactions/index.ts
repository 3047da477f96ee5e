import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { authOf, bearerSecurity, requireAuth } from '@guest/auth';
import { TransactionsPage, transactionsQuery } from '../../../../transactions/schemas.ts';
import type { WriteRouteOptions } from '../../../../services.ts';

export default async function meTransactions(app: FastifyInstance, { services }: WriteRouteOptions) {
  const { config } = services;
  app.withTypeProvider<ZodTypeProvider>().get(
    '/v1/me/transactions',
    {
      config: {
        errors: ['validation_error', 'unauthorized', 'email_not_confirmed'],
        example: {
          query: { type: 'all', limit: 20, timezone: 'Asia/Bangkok' },
          response: {
            items: [
              {
                id: 'pay_3c7d62f6a165fc8ec8e9',
                kind: 'booking_payment',
                state: 'pending',
                amount_minor: 90000,
                currency: 'THB',
                order_amount_minor: 90000,
                order_currency: 'THB',
                exchange_rate: '1',
                method: 'qr',
                bank_operation_id: null,
                refund_of: null,
                occurred_at: '2026-11-23T08:00:00+07:00',
                timezone: 'Asia/Bangkok',
                target: { type: 'booking', id: 'bk_demo_3', title: 'Thai cooking class' },
              },
              {
                id: 'ref_1de5dd5e24c84212cb9e',
                kind: 'booking_refund',
                state: 'paid',
                amount_minor: 178000,
                currency: 'THB',
                order_amount_minor: 5000,
                order_currency: 'USD',
                exchange_rate: '35.6',
                method: 'card',
                bank_operation_id: 'OP-100412',
                refund_of: 'pay_62239e3edebed40583f6',
                occurred_at: '2026-11-22T16:00:00+07:00',
                timezone: 'Asia/Bangkok',
                target: { type: 'booking', id: 'bk_demo_2', title: 'Phi Phi islands boat trip' },
              },
            ],
            next_cursor: null,
            has_more: false,
            summary: {
              month: '2026-11',
              timezone: 'Asia/Bangkok',
              paid: [{ amount_minor: 356000, currency: 'THB' }],
              refunded: [{ amount_minor: 178000, currency: 'THB' }],
            },
          },
        },
      },
      onRequest: requireAuth({ confirmed: true }),
      schema: {
        operationId: 'listTransactions',
        tags: ['me'],
        summary: 'Payments and refunds',
        description:
          'Newest first, cursor-paged (`limit` 1 to 100), filtered by `type`. Amounts are minor units with their currency; ' +
          "times are in the place's zone. `summary` totals this month's completed payments and refunds per currency. ",
        security: bearerSecurity,
        querystring: transactionsQuery(config.TRANSACTIONS_LIMIT_DEFAULT, config.TRANSACTIONS_LIMIT_MAX),
        response: { 200: TransactionsPage },
      },
    },
    async (req) => services.transactions.list(authOf(req).accountId, req.query),
  );
}
