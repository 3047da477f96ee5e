import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { MessageResponse } from '@guest/http-kit';
import { PasswordResetConfirm } from '../../../../auth/schemas.ts';
import type { WriteRouteOptions } from '../../../../services.ts';

export default async function passwordResetConfirm(app: FastifyInstance, { services }: WriteRouteOptions) {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/v1/auth/password-reset/confirm',
    {
      config: {
        errors: ['validation_error', 'schema_invalid'],
        example: {
          after: ['requestPasswordReset', 'login', 'changePassword'],
          body: { token: 'Kp4x8Wq2Zr6Tn1Vb9Ls3Hd7Fj5Gm0Yc2Q-aE3uR8wNt', password: 'amber meadow compass 28' },
          response: { ok: true, message: 'Password changed. Sign in with the new password.' },
        },
      },
      schema: {
        operationId: 'confirmPasswordReset',
        tags: ['auth'],
        summary: 'Set a new password with the emailed token',
        description:
          'Ends every session of the account (spec 5.11) and confirms the email (the link proved it). A weak password is 400 ' +
          '`validation_error` on `password` and leaves the token usable; an invalid, expired or used token is 400 on `token`.',
        body: PasswordResetConfirm,
        response: { 200: MessageResponse },
      },
    },
    async (req) => {
      await services.auth.passwords.confirmReset(req.body.token, req.body.password);
      return { ok: true, message: 'Password changed. Sign in with the new password.' };
    },
  );
}
