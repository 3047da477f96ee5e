import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { cookieSession } from '@guest/auth';
import { CookieSessionAnswer, SessionModeHeaders } from '@guest/http-kit';
import { RegisterRequest, TokenPairResponse } from '../../../auth/schemas.ts';
import { clientMeta } from '../../../auth/client-meta.ts';
import type { WriteRouteOptions } from '../../../services.ts';

export default async function register(app: FastifyInstance, { services }: WriteRouteOptions) {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/v1/auth/register',
    {
      ...cookieSession(),
      config: {
        errors: ['validation_error', 'forbidden', 'captcha_required', 'conflict', 'schema_invalid'],
        idempotent: true,
        example: {
          body: {
            first_name: 'Anna',
            last_name: 'Lee',
            email: 'anna.lee@example.com',
            password: 'plum harbor lantern 57',
            accept_terms: true,
            marketing_opt_in: false,
          },
          response: {
            access_token:
              'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzaWQiOiJmNTcyMmU1NS05ZTQzLTQwNjktYjc5Zi1jNmI3NzdiYzJhZGMiLCJzdWIiOiIyYTU1ZjNjZi00Y2I0LTQyY2MtYWFkMi0zZTUyNTFmYTA2ZmIiLCJhdWQiOiJndWVzdCIsImV4cCI6MTc5NTQ3NjUwMn0.q7yXc2VnZ2VzdGVkLXNpZ25hdHVyZS1mb3ItZG9jcw',
            refresh_token: 'yrTV0EILK_g300YF-qO4FecaXsVyA0Aolvy_hnLUwTc',
            token_type: 'Bearer',
            expires_in: 900,
            session_id: '803535e3-91c9-4d8b-a1f2-8b25e647399b',
          },
        },
      },
      schema: {
        operationId: 'register',
        tags: ['auth'],
        summary: 'Create an account and sign in',
        description:
          'Opens a session and mails an email-confirmation link. Accepts `Idempotency-Key`. ' +
          '`accept_terms` must be true and the password must follow the rules (10–128 characters, not common, not the email): ' +
          'otherwise 400 `validation_error` with `details.field` and `details.reason`. A burst of attempts from one address, ' +
          `whatever their outcome, demands a captcha. ` +
          '409 `conflict` (`details.reason` = `email_taken`) when the email is registered.',
        body: RegisterRequest,
        headers: SessionModeHeaders,
        response: { 201: TokenPairResponse, 204: CookieSessionAnswer },
      },
    },
    async (req, reply) => {
      const pair = await services.auth.registration.register(req.body, clientMeta(req));
      return reply.code(201).header('cache-control', 'no-store').send(pair);
    },
  );
}
