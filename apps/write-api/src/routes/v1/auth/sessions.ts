import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { describeCodes, errorResponses } from '@guest/http-kit';
import { authOf, bearerSecurity, requireAuth } from '@guest/auth';
import { SessionList } from '../../../auth/schemas.ts';
import type { WriteRouteOptions } from '../../../services.ts';

export default async function sessions(app: FastifyInstance, { services }: WriteRouteOptions) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/v1/auth/sessions',
    {
      config: {
        example: {
          response: [
            {
              id: 'f5722e55-9e43-4069-b79f-c6b777bc2adc',
              current: true,
              created_at: '2026-11-23T21:43:22.055Z',
              last_used_at: '2026-11-23T21:43:22.083Z',
              expires_at: '2026-12-23T21:43:22.083Z',
              ip: '127.0.0.1',
              user_agent: 'node',
            },
            {
              id: '803535e3-91c9-4d8b-a1f2-8b25e647399b',
              current: false,
              created_at: '2026-11-23T21:43:21.584Z',
              last_used_at: '2026-11-23T21:43:21.584Z',
              expires_at: '2026-12-23T21:43:21.584Z',
              ip: '127.0.0.1',
              user_agent: 'node',
            },
          ],
        },
      },
      onRequest: requireAuth({ allowLoginRestricted: true }),
      schema: {
        tags: ['auth'],
        summary: 'Open sessions of the account',
        description: `Same list as \`GET /v1/me/sessions\`; \`current\` marks the caller's. Errors: ${describeCodes('unauthorized', 'rate_limited')}.`,
        security: bearerSecurity,
        response: { 200: SessionList, ...errorResponses(401, 429, 500) },
      },
    },
    async (req) => services.auth.sessions.list(authOf(req)),
  );
}
