import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { EmptyBody, PasswordResetRequest } from '../../../../auth/schemas.ts';
import type { WriteRouteOptions } from '../../../../services.ts';

export default async function passwordResetRequest(app: FastifyInstance, { services }: WriteRouteOptions) {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/v1/auth/password-reset/request',
    {
      config: {
        errors: ['validation_error', 'captcha_required', 'schema_invalid'],
        idempotent: true,
        example: { after: ['register'], body: { email: 'anna.lee@example.com' } },
      },
      schema: {
        operationId: 'requestPasswordReset',
        tags: ['auth'],
        summary: 'Mail a password-reset link',
        description:
          '202 with an empty body whether or not the email has an account (spec 5.10). At most ' +
          `${services.config.RATE_LIMIT_PASSWORD_RESET_PER_HOUR} mails per hour go to one address; further requests are ` +
          'still answered 202 and send nothing. The mail is prepared after the answer, so known and unknown emails take the same time. A burst of requests from one network address demands a captcha.',
        body: PasswordResetRequest,
        response: { 202: EmptyBody },
      },
    },
    async (req, reply) => {
      await services.auth.passwords.requestReset(req.body, req.addressKey);
      // Empty body (spec): nothing is serialized when the payload is undefined.
      return reply.code(202).send(undefined as never);
    },
  );
}
