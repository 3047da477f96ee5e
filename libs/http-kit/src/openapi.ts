import type { FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';

/** Interface version label (spec section 9): changes with every published interface revision. */
export const INTERFACE_VERSION = '26.11.21';

export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Guest Discovery and Booking API',
        version: INTERFACE_VERSION,
        description:
          'Public API for guests of the travel marketplace. Errors always use the envelope ' +
          '`{error: {code, message, details, request_id}}`; every response carries `X-Request-Id`. ' +
          'Lists are cursor-paged: `next_cursor` is opaque and signed. Creating requests accept `Idempotency-Key`.',
      },
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      },
    },
    transform: jsonSchemaTransform,
    transformObject: jsonSchemaTransformObject,
  });
  await app.register(swaggerUi, { routePrefix: '/docs', staticCSP: true });
  app.get('/v1/openapi.json', { schema: { hide: true } as never, config: { rateLimitExempt: true } }, async () =>
    app.swagger(),
  );
}
