import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { describeCodes, errorResponses } from '@guest/http-kit';
import { EmptyBody, PasswordResetRequest } from '../../../../accounts/schemas.ts';
import { emailKey, normalizeEmail } from '../../../../accounts/email.ts';
import { PASSWORD_RESET_QUEUE, type PasswordResetJob } from '../../../../accounts/password-reset-job.ts';
import { bumpSignal, checkCaptcha, countSignal } from '../../../../accounts/captcha-policy.ts';
import type { RouteOptions } from '../../../../accounts/context.ts';

export default async function passwordResetRequest(app: FastifyInstance, { ctx }: RouteOptions) {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/v1/auth/password-reset/request',
    {
      schema: {
        tags: ['auth'],
        summary: 'Mail a password-reset link',
        description:
          '202 with an empty body whether or not the email has an account (spec 5.10). At most ' +
          `${app.runtime.config.RATE_LIMIT_PASSWORD_RESET_PER_HOUR} mails per hour go to one address; further requests are ` +
          'still answered 202 and send nothing. The mail is prepared after the answer, so known and unknown emails take the same time. A burst of requests from one network address demands a captcha. ' +
          `Errors: ${describeCodes('captcha_required', 'schema_invalid', 'rate_limited')}.`,
        body: PasswordResetRequest,
        response: { 202: EmptyBody, ...errorResponses(400, 403, 422, 429, 500) },
      },
    },
    async (req, reply) => {
      const { config } = app.runtime;
      const burst = await countSignal(app, 'reset-address', req.ip);
      await checkCaptcha(app, burst >= config.CAPTCHA_AFTER_RESET_REQUESTS_PER_ADDRESS, req.body);
      await bumpSignal(app, 'reset-address', req.ip, 3600);

      const email = normalizeEmail(req.body.email);
      // Counted for every address, known or not, so the limit itself reveals nothing.
      const perEmail = await app.rateLimiter.hit(
        'password-reset',
        emailKey(email),
        config.RATE_LIMIT_PASSWORD_RESET_PER_HOUR,
        3600,
      );
      if (perEmail.allowed) await ctx.jobs.send(PASSWORD_RESET_QUEUE, { email } satisfies PasswordResetJob);
      // Empty body (spec): nothing is serialized when the payload is undefined.
      return reply.code(202).send(undefined as never);
    },
  );
}
