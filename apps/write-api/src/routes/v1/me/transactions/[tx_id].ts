import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { describeCodes, errorResponses } from '@guest/http-kit';
import { authOf, bearerSecurity, requireAuth } from '@guest/auth';
import { TransactionParams, TransactionResponse } from '../../../../transactions/schemas.ts';
import type { WriteRouteOptions } from '../../../../services.ts';

export default async function meTransaction(app: FastifyInstance, { services }: WriteRouteOptions) {
  app.withTypeProvider<ZodTypeProvider>().get(
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
    async (req) => services.transactions.get(authOf(req).accountId, req.params.tx_id),
  );
}
