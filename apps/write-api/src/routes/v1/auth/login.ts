import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { describeCodes, errorResponses } from '@guest/http-kit';
import { LoginRequest, TokenPairResponse } from '../../../auth/schemas.ts';
import { clientMeta } from '../../../auth/client-meta.ts';
import type { WriteRouteOptions } from '../../../services.ts';

export default async function login(app: FastifyInstance, { services }: WriteRouteOptions) {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/v1/auth/login',
    {
      config: { idempotent: true },
      schema: {
        tags: ['auth'],
        summary: 'Sign in with email and password',
        description:
          'Issues a token pair for a new session. Wrong email or password is 401 `unauthorized` (the same answer and the same time ' +
          'for an unknown email). After repeated failures per address or per email a captcha is demanded. ' +
          `Errors: ${describeCodes('unauthorized', 'forbidden', 'account_restricted', 'captcha_required', 'schema_invalid', 'rate_limited')}.`,
        body: LoginRequest,
        response: { 200: TokenPairResponse, ...errorResponses(400, 401, 403, 422, 429, 500) },
      },
    },
    async (req, reply) => {
      // Credentials must never be kept by a shared or browser cache (errors included).
      reply.header('cache-control', 'no-store');
      return services.auth.signIn.login(req.body, clientMeta(req));
    },
  );
}
