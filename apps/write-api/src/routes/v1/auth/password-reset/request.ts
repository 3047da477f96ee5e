import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { describeCodes, errorResponses } from '@guest/http-kit';
import { EmptyBody, PasswordResetRequest } from '../../../../auth/schemas.ts';
import type { WriteRouteOptions } from '../../../../services.ts';

export default async function passwordResetRequest(app: FastifyInstance, { services }: WriteRouteOptions) {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/v1/auth/password-reset/request',
    {
      config: { idempotent: true, example: { body: { email: 'anna.lee@example.com' } } },
      schema: {
        tags: ['auth'],
        summary: 'Mail a password-reset link',
        description:
          '202 with an empty body whether or not the email has an account (spec 5.10). At most ' +
          `${services.config.RATE_LIMIT_PASSWORD_RESET_PER_HOUR} mails per hour go to one address; further requests are ` +
          'still answered 202 and send nothing. The mail is prepared after the answer, so known and unknown emails take the same time. A burst of requests from one network address demands a captcha. ' +
          `Errors: ${describeCodes('captcha_required', 'schema_invalid', 'rate_limited')}.`,
        body: PasswordResetRequest,
        response: { 202: EmptyBody, ...errorResponses(400, 403, 422, 429, 500) },
      },
    },
    async (req, reply) => {
      await services.auth.passwords.requestReset(req.body, req.addressKey);
      // Empty body (spec): nothing is serialized when the payload is undefined.
      return reply.code(202).send(undefined as never);
    },
  );
}
