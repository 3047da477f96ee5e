import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { describeCodes, errorResponses } from '@guest/http-kit';
import { authOf, bearerSecurity, requireAuth } from '@guest/auth';
import {
  TransactionParams,
  TransactionResponse,
  TransactionsPage,
  transactionsQuery,
} from '../../../transactions/schemas.ts';
import { getTransaction, listTransactions } from '../../../transactions/service.ts';

export default async function meTransactions(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { database, config, clock } = app.runtime;

  r.get(
    '/v1/me/transactions',
    {
      onRequest: requireAuth({ confirmed: true }),
      schema: {
        tags: ['me'],
        summary: 'Payments and refunds',
        description:
          'Newest first, cursor-paged (`limit` 1 to 100), filtered by `type`. Amounts are minor units with their currency; ' +
          "times are in the place's zone. `summary` totals this month's completed payments and refunds per currency. " +
          `Errors: ${describeCodes('validation_error', 'unauthorized', 'email_not_confirmed', 'rate_limited')}.`,
        security: bearerSecurity,
        querystring: transactionsQuery(config.TRANSACTIONS_LIMIT_DEFAULT, config.TRANSACTIONS_LIMIT_MAX),
        response: { 200: TransactionsPage, ...errorResponses(400, 401, 403, 429, 500) },
      },
    },
    async (req) => listTransactions(database.db, app.cursors, authOf(req).accountId, req.query, clock.now()),
  );

  r.get(
    '/v1/me/transactions/:tx_id',
    {
      onRequest: requireAuth({ confirmed: true }),
      schema: {
        tags: ['me'],
        summary: 'One payment or refund',
        description: `Another person's operation is 404, like one that does not exist. Errors: ${describeCodes('validation_error', 'unauthorized', 'email_not_confirmed', 'not_found', 'rate_limited')}.`,
        security: bearerSecurity,
        params: TransactionParams,
        response: { 200: TransactionResponse, ...errorResponses(400, 401, 403, 404, 429, 500) },
      },
    },
    async (req) => getTransaction(database.db, authOf(req).accountId, req.params.tx_id),
  );
}
