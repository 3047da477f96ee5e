import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { describeCodes, errorResponses } from '@guest/http-kit';
import { authOf, bearerSecurity, requireAuth } from '@guest/auth';
import { ProfileResponse, ProfileUpdateRequest } from '../../../profile/schemas.ts';
import { loadProfile, publicBase, updateProfile } from '../../../profile/service.ts';

export default async function meProfile(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const db = app.runtime.database.db;

  r.get(
    '/v1/me',
    {
      onRequest: requireAuth(),
      schema: {
        tags: ['me'],
        summary: 'The profile of the signed-in guest',
        description: `All 27 fields, with the account's active restrictions. Errors: ${describeCodes('unauthorized', 'rate_limited')}.`,
        security: bearerSecurity,
        response: { 200: ProfileResponse, ...errorResponses(401, 429, 500) },
      },
    },
    async (req) => loadProfile(db, authOf(req).accountId, publicBase(req)),
  );

  r.patch(
    '/v1/me',
    {
      onRequest: requireAuth(),
      schema: {
        tags: ['me'],
        summary: 'Change some fields of the profile',
        description:
          'Only the fields present in the body change; a text field sent as `null` or `""` is cleared. Each value is checked: ' +
          'dates, ISO 3166-1 country codes, a supported language, a known currency, a phone in E.164. A broken rule is 400 ' +
          `\`validation_error\` with \`details.field\`. Errors: ${describeCodes('validation_error', 'schema_invalid', 'unauthorized', 'rate_limited')}.`,
        security: bearerSecurity,
        body: ProfileUpdateRequest,
        response: { 200: ProfileResponse, ...errorResponses(400, 401, 422, 429, 500) },
      },
    },
    async (req) => {
      const { accountId } = authOf(req);
      const today = app.runtime.clock.now().toISOString().slice(0, 10);
      await updateProfile(db, accountId, req.body, { today, config: app.runtime.config });
      return loadProfile(db, accountId, publicBase(req));
    },
  );
}
