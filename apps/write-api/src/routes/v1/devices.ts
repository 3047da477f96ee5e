import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { describeCodes, errorResponses } from '@guest/http-kit';
import { authOf, bearerSecurity, requireAuth } from '@guest/auth';
import { DeviceRequest, DeviceResponse } from '../../devices/schemas.ts';
import type { WriteRouteOptions } from '../../services.ts';

export default async function devicesRoute(app: FastifyInstance, { services }: WriteRouteOptions) {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/v1/devices',
    {
      onRequest: requireAuth(),
      config: { idempotent: true },
      schema: {
        tags: ['me'],
        summary: "Register a device's push permission",
        description:
          'Creates or updates the device named by `device_id` for the signed-in account and binds it to the current ' +
          'session. Pushes that the preferences allow are delivered only to devices with `push_permission` true whose ' +
          'session is open. Sending the same body again changes nothing; `Idempotency-Key` is accepted. ' +
          `Errors: ${describeCodes('schema_invalid', 'unauthorized', 'rate_limited')}.`,
        security: bearerSecurity,
        body: DeviceRequest,
        response: { 200: DeviceResponse, ...errorResponses(400, 401, 422, 429, 500) },
      },
    },
    async (req) => services.devices.register(authOf(req), req.body),
  );
}
