import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { describeCodes, errorResponses } from '@guest/http-kit';
import { authOf, bearerSecurity, requireAuth } from '@guest/auth';
import { TransactionsPage, transactionsQuery } from '../../../../transactions/schemas.ts';
import type { WriteRouteOptions } from '../../../../services.ts';

export default async function meTransactions(app: FastifyInstance, { services }: WriteRouteOptions) {
  const { config } = services;
  app.withTypeProvider<ZodTypeProvider>().get(
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
    async (req) => services.transactions.list(authOf(req).accountId, req.query),
  );
}
