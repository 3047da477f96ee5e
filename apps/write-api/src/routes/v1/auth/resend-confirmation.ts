import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { MessageResponse } from '@guest/http-kit';
import { authOf, bearerSecurity, requireAuth } from '@guest/auth';
import type { WriteRouteOptions } from '../../../services.ts';

export default async function resendConfirmation(app: FastifyInstance, { services }: WriteRouteOptions) {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/v1/auth/resend-confirmation',
    {
      onRequest: requireAuth(),
      config: {
        errors: ['unauthorized'],
        idempotent: true,
        example: { response: { ok: true, message: 'Confirmation email sent.' } },
      },
      schema: {
        operationId: 'resendConfirmation',
        tags: ['auth'],
        summary: 'Send the email-confirmation link again',
        description:
          `At most ${services.config.RATE_LIMIT_RESEND_CONFIRMATION_PER_HOUR} per hour per account; earlier links stop working. ` +
          `Answers 200 with a message when the email is already confirmed.`,
        security: bearerSecurity,
        response: { 200: MessageResponse },
      },
    },
    async (req) => {
      const outcome = await services.auth.registration.resendConfirmation(authOf(req));
      return {
        ok: true,
        message: outcome === 'already_confirmed' ? 'Email already confirmed.' : 'Confirmation email sent.',
      };
    },
  );
}
