import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { cookieSession } from '@guest/auth';
import { CookieSessionAnswer, SessionModeHeaders } from '@guest/http-kit';
import { LoginRequest, TokenPairResponse } from '../../../auth/schemas.ts';
import { clientMeta } from '../../../auth/client-meta.ts';
import type { WriteRouteOptions } from '../../../services.ts';

export default async function login(app: FastifyInstance, { services }: WriteRouteOptions) {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/v1/auth/login',
    {
      ...cookieSession(),
      config: {
        errors: [
          'validation_error',
          'unauthorized',
          'forbidden',
          'account_restricted',
          'captcha_required',
          'schema_invalid',
        ],
        idempotent: true,
        example: {
          after: ['register'],
          body: { email: 'anna.lee@example.com', password: 'plum harbor lantern 57' },
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
        operationId: 'login',
        tags: ['auth'],
        summary: 'Sign in with email and password',
        description:
          'Issues a token pair for a new session. Wrong email or password is 401 `unauthorized` (the same answer and the same time ' +
          'for an unknown email). After repeated failures per address or per email a captcha is demanded.',
        body: LoginRequest,
        headers: SessionModeHeaders,
        response: { 200: TokenPairResponse, 204: CookieSessionAnswer },
      },
    },
    async (req, reply) => {
      // Credentials must never be kept by a shared or browser cache (errors included).
      reply.header('cache-control', 'no-store');
      return services.auth.signIn.login(req.body, clientMeta(req));
    },
  );
}
