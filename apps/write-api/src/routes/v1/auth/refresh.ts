import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { cookieSession } from '@guest/auth';
import { CookieSessionAnswer, SessionModeHeaders } from '@guest/http-kit';
import { RefreshRequest, TokenPairResponse } from '../../../auth/schemas.ts';
import { clientMeta } from '../../../auth/client-meta.ts';
import type { WriteRouteOptions } from '../../../services.ts';

export default async function refresh(app: FastifyInstance, { services }: WriteRouteOptions) {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/v1/auth/refresh',
    {
      ...cookieSession({ refresh: true }),
      config: {
        errors: ['validation_error', 'unauthorized', 'forbidden', 'account_restricted', 'schema_invalid'],
        example: {
          after: ['register'],
          body: { refresh_token: 'yrTV0EILK_g300YF-qO4FecaXsVyA0Aolvy_hnLUwTc' },
          response: {
            access_token:
              'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzaWQiOiJmNTcyMmU1NS05ZTQzLTQwNjktYjc5Zi1jNmI3NzdiYzJhZGMiLCJzdWIiOiIyYTU1ZjNjZi00Y2I0LTQyY2MtYWFkMi0zZTUyNTFmYTA2ZmIiLCJhdWQiOiJndWVzdCIsImV4cCI6MTc5NTQ3NjUwMn0.q7yXc2VnZ2VzdGVkLXNpZ25hdHVyZS1mb3ItZG9jcw',
            refresh_token: 'yrTV0EILK_g300YF-qO4FecaXsVyA0Aolvy_hnLUwTc',
            token_type: 'Bearer',
            expires_in: 900,
            session_id: 'f5722e55-9e43-4069-b79f-c6b777bc2adc',
          },
        },
      },
      schema: {
        operationId: 'refreshTokens',
        tags: ['auth'],
        summary: 'Exchange the refresh token for fresh access tokens',
        description:
          'Returns new access tokens and the same refresh token, and extends the session ' +
          `(${services.config.SESSION_IDLE_TTL_D} days idle, ${services.config.SESSION_ABSOLUTE_TTL_D} days at most); ` +
          'a refused refresh (401, 403) extends nothing. ' +
          'Never asks for a captcha. An unknown, closed or expired refresh token is 401 `unauthorized`: sign in again.',
        body: RefreshRequest,
        headers: SessionModeHeaders,
        response: { 200: TokenPairResponse, 204: CookieSessionAnswer },
      },
    },
    async (req, reply) => {
      // Credentials must never be kept by a shared or browser cache (errors included).
      reply.header('cache-control', 'no-store');
      return services.auth.signIn.refresh(req.body.refresh_token, clientMeta(req));
    },
  );
}
