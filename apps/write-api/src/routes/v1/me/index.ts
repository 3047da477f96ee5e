import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { authOf, bearerSecurity, requireAuth } from '@guest/auth';
import { ProfileResponse, ProfileUpdateRequest } from '../../../me/schemas.ts';
import { PROFILE_ALONGSIDE } from '../../../me/store.ts';
import { publicBase } from '../../../media/urls.ts';
import type { WriteRouteOptions } from '../../../services.ts';

export default async function meProfile(app: FastifyInstance, { services }: WriteRouteOptions) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const base = publicBase;

  r.get(
    '/v1/me',
    {
      config: {
        errors: ['unauthorized'],
        example: {
          response: {
            id: '2a55f3cf-4cb4-42cc-aad2-3e5251fa06fb',
            email: 'anna.lee@example.com',
            email_confirmed: true,
            status: 'active',
            first_name: 'Anna',
            last_name: 'Lee',
            avatar_url: null,
            birth_date: null,
            gender: null,
            phone: null,
            phone_confirmed: false,
            citizenship: null,
            residence_country: null,
            billing_address: null,
            emergency_contact: null,
            language: null,
            currency: null,
            verification_status: 'none',
            verified_at: null,
            notify_push: true,
            notify_email: true,
            notify_marketing: false,
            bookings_count: 0,
            rating_avg: null,
            rating_count: 0,
            created_at: '2026-11-23T21:43:21.584Z',
            restrictions: [],
          },
        },
      },
      // The profile comes in the session check's round trip: one statement per request.
      onRequest: requireAuth({ alongside: PROFILE_ALONGSIDE }),
      schema: {
        operationId: 'getProfile',
        tags: ['me'],
        summary: 'The profile of the signed-in guest',
        description: `All 27 fields, with the account's active restrictions.`,
        security: bearerSecurity,
        response: { 200: ProfileResponse },
      },
    },
    async (req) => services.profile.get(authOf(req).accountId, base(req), req.authAlongside),
  );

  r.patch(
    '/v1/me',
    {
      config: {
        errors: ['validation_error', 'unauthorized', 'schema_invalid'],
        example: {
          body: {
            first_name: 'Anna',
            phone: '+66812345678',
            birth_date: '1990-05-17',
            citizenship: 'DE',
            residence_country: 'TH',
            language: 'en',
          },
          response: {
            id: '2a55f3cf-4cb4-42cc-aad2-3e5251fa06fb',
            email: 'anna.lee@example.com',
            email_confirmed: true,
            status: 'active',
            first_name: 'Anna',
            last_name: 'Lee',
            avatar_url: null,
            birth_date: '1990-05-17',
            gender: null,
            phone: '+66812345678',
            phone_confirmed: false,
            citizenship: 'DE',
            residence_country: 'TH',
            billing_address: null,
            emergency_contact: null,
            language: 'en',
            currency: null,
            verification_status: 'none',
            verified_at: null,
            notify_push: true,
            notify_email: true,
            notify_marketing: false,
            bookings_count: 0,
            rating_avg: null,
            rating_count: 0,
            created_at: '2026-11-23T21:43:21.584Z',
            restrictions: [],
          },
        },
      },
      onRequest: requireAuth(),
      schema: {
        operationId: 'updateProfile',
        tags: ['me'],
        summary: 'Change some fields of the profile',
        description:
          'Only the fields present in the body change; a text field sent as `null` or `""` is cleared. Each value is checked: ' +
          'dates, ISO 3166-1 country codes, a supported language, a known currency, a phone in E.164. Broken rules are 400 ' +
          '`validation_error` naming every such field in `details.fields` at once. Unknown and read-only fields (`email`, ' +
          '`status`, a misspelt name) are 422 `schema_invalid` naming them in `details.fields`, and nothing changes.',
        security: bearerSecurity,
        body: ProfileUpdateRequest,
        response: { 200: ProfileResponse },
      },
    },
    async (req) => services.profile.update(authOf(req).accountId, req.body, base(req)),
  );
}
