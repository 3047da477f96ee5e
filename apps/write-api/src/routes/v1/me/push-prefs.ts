import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { describeCodes, errorResponses } from '@guest/http-kit';
import { authOf, bearerSecurity, requireAuth } from '@guest/auth';
import { PushPrefsBody, PushPrefsUpdate } from '../../../prefs/schemas.ts';
import type { WriteRouteOptions } from '../../../services.ts';

export default async function mePushPrefs(app: FastifyInstance, { services }: WriteRouteOptions) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/v1/me/push-prefs',
    {
      config: {
        example: {
          response: {
            enabled: true,
            groups: [
              { code: 'messages', items: [{ code: 'message.new', enabled: true, default: true, marketing: false }] },
              {
                code: 'booking',
                items: [
                  { code: 'booking.status', enabled: true, default: true, marketing: false },
                  { code: 'booking.reminder', enabled: true, default: true, marketing: false },
                ],
              },
            ],
          },
        },
      },
      onRequest: requireAuth({ confirmed: true }),
      schema: {
        tags: ['me'],
        summary: 'Push preferences',
        description:
          '`enabled` is the master switch (also `notify_push` of the profile). Codes never touched show the registry ' +
          'defaults. Pushes arrive only on devices that granted permission (`POST /v1/devices`) and are signed in. ' +
          `Errors: ${describeCodes('unauthorized', 'email_not_confirmed', 'rate_limited')}.`,
        security: bearerSecurity,
        response: { 200: PushPrefsBody, ...errorResponses(401, 403, 429, 500) },
      },
    },
    async (req) => services.prefs.get(authOf(req).accountId, 'push'),
  );

  r.put(
    '/v1/me/push-prefs',
    {
      config: {
        example: {
          body: { enabled: true, prefs: { 'marketing.offers': false } },
          response: {
            enabled: true,
            groups: [
              { code: 'messages', items: [{ code: 'message.new', enabled: true, default: true, marketing: false }] },
              {
                code: 'booking',
                items: [
                  { code: 'booking.status', enabled: true, default: true, marketing: false },
                  { code: 'booking.reminder', enabled: true, default: true, marketing: false },
                ],
              },
            ],
          },
        },
      },
      onRequest: requireAuth({ confirmed: true }),
      schema: {
        tags: ['me'],
        summary: 'Change push preferences',
        description:
          'Sets the master switch when `enabled` is a boolean, and the codes named in `prefs`; everything else keeps its ' +
          `value. An unknown code is 400 \`push_pref_unknown\` and nothing changes. Errors: ${describeCodes('push_pref_unknown', 'schema_invalid', 'unauthorized', 'email_not_confirmed', 'rate_limited')}.`,
        security: bearerSecurity,
        body: PushPrefsUpdate,
        response: { 200: PushPrefsBody, ...errorResponses(400, 401, 403, 422, 429, 500) },
      },
    },
    async (req) => services.prefs.update(authOf(req).accountId, 'push', req.body),
  );
}
