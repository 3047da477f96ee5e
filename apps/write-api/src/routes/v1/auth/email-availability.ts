import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { EmailAvailabilityQuery, EmailAvailabilityResponse } from '../../../auth/schemas.ts';
import type { WriteRouteOptions } from '../../../services.ts';

export default async function emailAvailability(app: FastifyInstance, { services }: WriteRouteOptions) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/v1/auth/email-availability',
    {
      config: {
        errors: ['validation_error'],
        example: { query: { email: 'anna.lee@example.com' }, response: { available: true } },
      },
      schema: {
        operationId: 'checkEmailAvailability',
        tags: ['auth'],
        summary: 'Whether an email can still be registered',
        description: `Open, under a strict per-address limit (${services.config.RATE_LIMIT_EMAIL_AVAILABILITY_PER_MIN}/min).`,
        querystring: EmailAvailabilityQuery,
        response: { 200: EmailAvailabilityResponse },
      },
    },
    async (req) => ({ available: await services.auth.registration.isEmailAvailable(req.query.email, req.addressKey) }),
  );
}
