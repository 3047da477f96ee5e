import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { authOf, bearerSecurity, requireAuth } from '@guest/auth';
import { TransactionParams, TransactionResponse } from '../../../../transactions/schemas.ts';
import type { WriteRouteOptions } from '../../../../services.ts';

export default async function meTransaction(app: FastifyInstance, { services }: WriteRouteOptions) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/v1/me/transactions/:tx_id',
    {
      config: {
        errors: ['validation_error', 'unauthorized', 'email_not_confirmed', 'not_found'],
        example: {
          after: ['listTransactions'],
          params: { tx_id: 'pay_434d404e46ef05943804' },
          response: {
            id: 'pay_434d404e46ef05943804',
            kind: 'booking_payment',
            state: 'paid',
            amount_minor: 1250000,
            currency: 'THB',
            order_amount_minor: 1250000,
            order_currency: 'THB',
            exchange_rate: '1',
            method: 'card',
            bank_operation_id: 'OP-100201',
            refund_of: null,
            occurred_at: '2026-10-14T12:00:00+07:00',
            timezone: 'Asia/Bangkok',
            target: { type: 'booking', id: 'bk_demo_1', title: 'Sea-view villa, Kata' },
          },
        },
      },
      onRequest: requireAuth({ confirmed: true }),
      schema: {
        operationId: 'getTransaction',
        tags: ['me'],
        summary: 'One payment or refund',
        description: `Another person's operation is 404, like one that does not exist.`,
        security: bearerSecurity,
        params: TransactionParams,
        response: { 200: TransactionResponse },
      },
    },
    async (req) => services.transactions.get(authOf(req).accountId, req.params.tx_id),
  );
}
