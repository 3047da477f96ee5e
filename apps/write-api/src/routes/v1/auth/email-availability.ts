import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { and, eq, ne } from 'drizzle-orm';
import { schema } from '@guest/db';
import { describeCodes, errorResponses, errors } from '@guest/http-kit';
import { EmailAvailabilityQuery, EmailAvailabilityResponse, Email } from '../../../accounts/schemas.ts';
import { normalizeEmail } from '../../../accounts/email.ts';

const { accounts } = schema;

export default async function emailAvailability(app: FastifyInstance) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/v1/auth/email-availability',
    {
      schema: {
        tags: ['auth'],
        summary: 'Whether an email can still be registered',
        description: `Open, under a strict per-address limit (${app.runtime.config.RATE_LIMIT_EMAIL_AVAILABILITY_PER_MIN}/min). Errors: ${describeCodes('validation_error', 'rate_limited')}.`,
        querystring: EmailAvailabilityQuery,
        response: { 200: EmailAvailabilityResponse, ...errorResponses(400, 429, 500) },
      },
    },
    async (req) => {
      const { config } = app.runtime;
      await app.rateLimiter.consume('email-availability', req.ip, config.RATE_LIMIT_EMAIL_AVAILABILITY_PER_MIN, 60);
      if (!Email.safeParse(req.query.email.trim()).success) {
        throw errors.validation('email', 'Not an email address.', { reason: 'invalid_email' });
      }
      const [taken] = await app.runtime.database.db
        .select({ id: accounts.id })
        .from(accounts)
        .where(and(eq(accounts.email, normalizeEmail(req.query.email)), ne(accounts.status, 'deleted')))
        .limit(1);
      return { available: !taken };
    },
  );
}
