import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { MessageResponse } from '@guest/http-kit';
import { ConfirmEmailRequest } from '../../../auth/schemas.ts';
import type { WriteRouteOptions } from '../../../services.ts';

export default async function deleteConfirm(app: FastifyInstance, { services }: WriteRouteOptions) {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/v1/auth/delete-confirm',
    {
      config: {
        errors: ['validation_error', 'schema_invalid'],
        example: {
          after: ['requestAccountDeletion'],
          last: true,
          body: { token: 'Dz5r1Qm8Xw3Kb7Pt2Nv6Hs9Lc4Jf0Gy1A_mW4pS7eLq' },
          response: { ok: true, message: 'Account deleted.' },
        },
      },
      schema: {
        operationId: 'confirmAccountDeletion',
        tags: ['auth'],
        summary: 'Delete the account with the emailed token',
        description:
          'Ends every session, marks the account `deleted` and erases its personal data (email, names, password, profile, ' +
          'avatar, devices, favorites, notifications, assistant history, addresses and devices of its sessions, its mail). The account id stays, detached from the person, for the records the law ' +
          'keeps (payments). A later sign-in with the old email fails. An invalid, expired or used token is 400 on `token`.',
        body: ConfirmEmailRequest,
        response: { 200: MessageResponse },
      },
    },
    async (req) => {
      await services.auth.deletion.confirm(req.body.token);
      return { ok: true, message: 'Account deleted.' };
    },
  );
}
