import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { MessageResponse } from '@guest/http-kit';
import { authOf, bearerSecurity, requireAuth } from '@guest/auth';
import { PasswordChangeRequest } from '../../../../auth/schemas.ts';
import type { WriteRouteOptions } from '../../../../services.ts';

export default async function passwordChange(app: FastifyInstance, { services }: WriteRouteOptions) {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/v1/auth/password/change',
    {
      config: {
        errors: ['validation_error', 'unauthorized', 'schema_invalid'],
        example: {
          after: ['login'],
          body: { current_password: 'plum harbor lantern 57', new_password: 'quiet orchard kettle 93' },
          response: { ok: true, message: 'Password changed. Other sessions were signed out.' },
        },
      },
      onRequest: requireAuth(),
      schema: {
        operationId: 'changePassword',
        tags: ['auth'],
        summary: 'Change the password from inside the account',
        description:
          'Keeps the current session and ends all others (spec 5.11). A wrong `current_password` is 400 `validation_error` ' +
          `on \`current_password\`; a weak new one on \`new_password\`. At most ${services.config.RATE_LIMIT_PASSWORD_CHANGE_PER_HOUR} attempts per hour. `,
        security: bearerSecurity,
        body: PasswordChangeRequest,
        response: { 200: MessageResponse },
      },
    },
    async (req) => {
      await services.auth.passwords.change(authOf(req), req.body.current_password, req.body.new_password);
      return { ok: true, message: 'Password changed. Other sessions were signed out.' };
    },
  );
}
