import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { describeCodes, errorResponses } from '@guest/http-kit';
import { authOf, bearerSecurity, requireAuth } from '@guest/auth';
import { EmailPrefsBody, EmailPrefsUpdate } from '../../../prefs/schemas.ts';
import type { PrefsView } from '../../../prefs/service.ts';
import type { WriteRouteOptions } from '../../../services.ts';

export default async function meEmailPrefs(app: FastifyInstance, { services }: WriteRouteOptions) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  // EmailPrefsBody lists the groups only: the email master switch is the profile's `notify_email`.
  const shape = ({ groups }: PrefsView) => ({ groups });

  r.get(
    '/v1/me/email-prefs',
    {
      config: {
        example: {
          response: {
            groups: [
              {
                code: 'booking',
                items: [
                  { code: 'booking.status', enabled: true, default: true, marketing: false },
                  { code: 'booking.reminder', enabled: true, default: true, marketing: false },
                ],
              },
              {
                code: 'messages',
                items: [{ code: 'message.unread_digest', enabled: true, default: true, marketing: false }],
              },
            ],
          },
        },
      },
      onRequest: requireAuth({ confirmed: true }),
      schema: {
        tags: ['me'],
        summary: 'Email preferences',
        description:
          'Codes never touched show the registry defaults (marketing follows `notify_marketing`, the rest on). ' +
          `Errors: ${describeCodes('unauthorized', 'email_not_confirmed', 'rate_limited')}.`,
        security: bearerSecurity,
        response: { 200: EmailPrefsBody, ...errorResponses(401, 403, 429, 500) },
      },
    },
    async (req) => shape(await services.prefs.get(authOf(req).accountId, 'email')),
  );

  r.put(
    '/v1/me/email-prefs',
    {
      config: {
        example: {
          body: { prefs: { 'marketing.news': false, 'review.request': true } },
          response: {
            groups: [
              {
                code: 'booking',
                items: [
                  { code: 'booking.status', enabled: true, default: true, marketing: false },
                  { code: 'booking.reminder', enabled: true, default: true, marketing: false },
                ],
              },
              {
                code: 'messages',
                items: [{ code: 'message.unread_digest', enabled: true, default: true, marketing: false }],
              },
            ],
          },
        },
      },
      onRequest: requireAuth({ confirmed: true }),
      schema: {
        tags: ['me'],
        summary: 'Change email preferences',
        description:
          'Sets the codes named in `prefs`; the others keep their values. An unknown code (own-action emails included: ' +
          `they cannot be turned off) is 400 \`email_pref_unknown\` and nothing changes. Errors: ${describeCodes('email_pref_unknown', 'schema_invalid', 'unauthorized', 'email_not_confirmed', 'rate_limited')}.`,
        security: bearerSecurity,
        body: EmailPrefsUpdate,
        response: { 200: EmailPrefsBody, ...errorResponses(400, 401, 403, 422, 429, 500) },
      },
    },
    async (req) => shape(await services.prefs.update(authOf(req).accountId, 'email', req.body)),
  );
}
