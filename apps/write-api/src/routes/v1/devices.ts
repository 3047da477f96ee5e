import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { authOf, bearerSecurity, requireAuth } from '@guest/auth';
import { DeviceRequest, DeviceResponse } from '../../devices/schemas.ts';
import type { WriteRouteOptions } from '../../services.ts';

export default async function devicesRoute(app: FastifyInstance, { services }: WriteRouteOptions) {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/v1/devices',
    {
      onRequest: requireAuth(),
      config: {
        errors: ['validation_error', 'unauthorized', 'schema_invalid'],
        idempotent: true,
        example: {
          body: {
            device_id: 'ios-6B29FC40-CA47-1067-B31D-00DD010662DA',
            platform: 'ios',
            push_permission: true,
            push_token: 'f1c2d3e4a5b6c7d8e9f0a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6e7f8a9b0c1d2',
            app_version: '3.4.1',
          },
          response: {
            id: '68b2dc5d-70b9-4107-ab9a-e2eb3c973238',
            device_id: 'ios-6B29FC40-CA47-1067-B31D-00DD010662DA',
            platform: 'ios',
            push_permission: true,
            has_push_token: true,
            session_id: 'f5722e55-9e43-4069-b79f-c6b777bc2adc',
            updated_at: '2026-11-23T21:43:22.716Z',
          },
        },
      },
      schema: {
        operationId: 'registerDevice',
        tags: ['me'],
        summary: "Register a device's push permission",
        description:
          'Creates or updates the device named by `device_id` for the signed-in account and binds it to the current ' +
          'session. Pushes that the preferences allow are delivered only to devices with `push_permission` true whose ' +
          'session is open. Sending the same body again changes nothing; `Idempotency-Key` is accepted.',
        security: bearerSecurity,
        body: DeviceRequest,
        response: { 200: DeviceResponse },
      },
    },
    async (req) => services.devices.register(authOf(req), req.body),
  );
}
