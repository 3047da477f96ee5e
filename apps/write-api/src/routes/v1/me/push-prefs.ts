import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { authOf, bearerSecurity, requireAuth } from '@guest/auth';
import { PushPrefsBody, PushPrefsUpdate } from '../../../prefs/schemas.ts';
import type { WriteRouteOptions } from '../../../services.ts';

export default async function mePushPrefs(app: FastifyInstance, { services }: WriteRouteOptions) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/v1/me/push-prefs',
    {
      config: {
        errors: ['unauthorized', 'email_not_confirmed'],
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
        operationId: 'getPushPrefs',
        tags: ['me'],
        summary: 'Push preferences',
        description:
          '`enabled` is the master switch (also `notify_push` of the profile). Codes never touched show the registry ' +
          'defaults. Pushes arrive only on devices that granted permission (`POST /v1/devices`) and are signed in.',
        security: bearerSecurity,
        response: { 200: PushPrefsBody },
      },
    },
    async (req) => services.prefs.get(authOf(req).accountId, 'push'),
  );

  r.put(
    '/v1/me/push-prefs',
    {
      config: {
        errors: ['validation_error', 'push_pref_unknown', 'unauthorized', 'email_not_confirmed', 'schema_invalid'],
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
        operationId: 'putPushPrefs',
        tags: ['me'],
        summary: 'Change push preferences',
        description:
          'Sets the master switch when `enabled` is a boolean, and the codes named in `prefs`; everything else keeps its ' +
          `value. An unknown code is 400 \`push_pref_unknown\` and nothing changes.`,
        security: bearerSecurity,
        body: PushPrefsUpdate,
        response: { 200: PushPrefsBody },
      },
    },
    async (req) => services.prefs.update(authOf(req).accountId, 'push', req.body),
  );
}
