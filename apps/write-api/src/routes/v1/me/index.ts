import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { describeCodes, errorResponses } from '@guest/http-kit';
import { authOf, bearerSecurity, requireAuth } from '@guest/auth';
import { ProfileResponse, ProfileUpdateRequest } from '../../../me/schemas.ts';
import { publicBase } from '../../../media/urls.ts';
import type { WriteRouteOptions } from '../../../services.ts';

export default async function meProfile(app: FastifyInstance, { services }: WriteRouteOptions) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const base = publicBase;

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
    async (req) => services.profile.get(authOf(req).accountId, base(req)),
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
          'dates, ISO 3166-1 country codes, a supported language, a known currency, a phone in E.164. Broken rules are 400 ' +
          '`validation_error` naming every such field in `details.fields` at once. Unknown and read-only fields (`email`, ' +
          '`status`, a misspelt name) are 422 `schema_invalid` naming them in `details.fields`, and nothing changes. ' +
          `Errors: ${describeCodes('validation_error', 'schema_invalid', 'unauthorized', 'rate_limited')}.`,
        security: bearerSecurity,
        body: ProfileUpdateRequest,
        response: { 200: ProfileResponse, ...errorResponses(400, 401, 422, 429, 500) },
      },
    },
    async (req) => services.profile.update(authOf(req).accountId, req.body, base(req)),
  );
}
