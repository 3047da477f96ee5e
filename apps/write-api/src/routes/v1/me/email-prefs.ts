import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
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
        errors: ['unauthorized', 'email_not_confirmed'],
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
        operationId: 'getEmailPrefs',
        tags: ['me'],
        summary: 'Email preferences',
        description:
          'Codes never touched show the registry defaults (marketing follows `notify_marketing`, the rest on).',
        security: bearerSecurity,
        response: { 200: EmailPrefsBody },
      },
    },
    async (req) => shape(await services.prefs.get(authOf(req).accountId, 'email')),
  );

  r.put(
    '/v1/me/email-prefs',
    {
      config: {
        errors: ['validation_error', 'email_pref_unknown', 'unauthorized', 'email_not_confirmed', 'schema_invalid'],
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
        operationId: 'putEmailPrefs',
        tags: ['me'],
        summary: 'Change email preferences',
        description:
          'Sets the codes named in `prefs`; the others keep their values. An unknown code (own-action emails included: ' +
          `they cannot be turned off) is 400 \`email_pref_unknown\` and nothing changes.`,
        security: bearerSecurity,
        body: EmailPrefsUpdate,
        response: { 200: EmailPrefsBody },
      },
    },
    async (req) => shape(await services.prefs.update(authOf(req).accountId, 'email', req.body)),
  );
}
