import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { MessageResponse } from '@guest/http-kit';
import { ConfirmEmailRequest } from '../../../auth/schemas.ts';
import type { WriteRouteOptions } from '../../../services.ts';

export default async function confirmEmail(app: FastifyInstance, { services }: WriteRouteOptions) {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/v1/auth/confirm-email',
    {
      config: {
        errors: ['validation_error', 'schema_invalid'],
        example: {
          after: ['register'],
          body: { token: 'b7Qm2xK9_pLw4RtZ0vNc8HfJ3sDy6GeUaT1oXi5kVq0' },
          response: { ok: true, message: 'Email confirmed.' },
        },
      },
      schema: {
        operationId: 'confirmEmail',
        tags: ['auth'],
        summary: 'Confirm the email address with the emailed token',
        description:
          'The token is the `token` query parameter of the link in the confirmation mail; it works once. An invalid, expired or ' +
          `used token is 400 \`validation_error\` on \`token\`.`,
        body: ConfirmEmailRequest,
        response: { 200: MessageResponse },
      },
    },
    async (req) => {
      await services.auth.registration.confirmEmail(req.body.token);
      return { ok: true, message: 'Email confirmed.' };
    },
  );
}
