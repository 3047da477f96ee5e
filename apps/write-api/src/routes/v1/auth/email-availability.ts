import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { describeCodes, errorResponses } from '@guest/http-kit';
import { EmailAvailabilityQuery, EmailAvailabilityResponse } from '../../../auth/schemas.ts';
import type { WriteRouteOptions } from '../../../services.ts';

export default async function emailAvailability(app: FastifyInstance, { services }: WriteRouteOptions) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/v1/auth/email-availability',
    {
      config: { example: { query: { email: 'anna.lee@example.com' }, response: { available: true } } },
      schema: {
        tags: ['auth'],
        summary: 'Whether an email can still be registered',
        description: `Open, under a strict per-address limit (${services.config.RATE_LIMIT_EMAIL_AVAILABILITY_PER_MIN}/min). Errors: ${describeCodes('validation_error', 'rate_limited')}.`,
        querystring: EmailAvailabilityQuery,
        response: { 200: EmailAvailabilityResponse, ...errorResponses(400, 429, 500) },
      },
    },
    async (req) => ({ available: await services.auth.registration.isEmailAvailable(req.query.email, req.addressKey) }),
  );
}
