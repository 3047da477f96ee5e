import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { AppError, describeCodes, errorResponses } from '@guest/http-kit';
import { hashToken, isAllowedToSignIn } from '@guest/auth';
import { RefreshRequest, TokenPairResponse } from '../../../accounts/schemas.ts';
import { clientMeta, tokenPair } from '../../../accounts/sessions.ts';
import { activeRestrictions } from '../../../accounts/restrictions.ts';
import type { RouteOptions } from '../../../accounts/context.ts';

// The live session of a refresh token, and its account's email for the checks.
const FIND = `
select s.id, s.account_id, a.email
  from sessions s
  join accounts a on a.id = s.account_id
 where s.refresh_token_hash = $1 and s.closed_at is null and s.expires_at > now()
   and a.status <> 'deleted'`;

// Sliding expiry: idle timeout from now, never past the absolute end of the session. Run only
// once every check has passed, so a refused refresh moves nothing; the conditions are repeated
// so that a session closed meanwhile is not revived.
const SLIDE = `
update sessions s
   set last_used_at = now(), ip = $2, user_agent = coalesce($3, s.user_agent),
       expires_at = least(now() + make_interval(days => $4), s.absolute_expires_at)
 where s.id = $1 and s.closed_at is null and s.expires_at > now()
returning s.id`;

const invalid = () =>
  new AppError('unauthorized', 'This refresh token is not valid; sign in again.', {
    reason: 'invalid_refresh_token',
  });

export default async function refresh(app: FastifyInstance, { ctx }: RouteOptions) {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/v1/auth/refresh',
    {
      schema: {
        tags: ['auth'],
        summary: 'Exchange the refresh token for fresh access tokens',
        description:
          'Returns new access tokens and the same refresh token, and extends the session (30 days idle, 180 days at most); ' +
          'a refused refresh (401, 403) extends nothing. ' +
          'Never asks for a captcha. An unknown, closed or expired refresh token is 401 `unauthorized`: sign in again. ' +
          `Errors: ${describeCodes('unauthorized', 'forbidden', 'account_restricted', 'schema_invalid', 'rate_limited')}.`,
        body: RefreshRequest,
        response: { 200: TokenPairResponse, ...errorResponses(400, 401, 403, 422, 429, 500) },
      },
    },
    async (req, reply) => {
      // Credentials must never be kept by a shared or browser cache.
      reply.header('cache-control', 'no-store');
      const { config, database } = app.runtime;
      const { rows } = await database.pool.query<{ id: string; account_id: string; email: string | null }>(FIND, [
        hashToken(req.body.refresh_token),
      ]);
      const s = rows[0];
      if (!s) throw invalid();
      if (!s.email || !isAllowedToSignIn(ctx.allowlist, s.email)) {
        throw new AppError('forbidden', 'This email may not sign in on this stand.', { reason: 'not_on_allowlist' });
      }
      const restricted = await activeRestrictions(database.db, s.account_id, ['login']);
      if (restricted.length) {
        throw new AppError('account_restricted', 'This account may not sign in.', { restrictions: restricted });
      }
      const meta = clientMeta(req);
      const slid = await database.pool.query(SLIDE, [s.id, meta.ip, meta.userAgent, config.SESSION_IDLE_TTL_D]);
      if (!slid.rowCount) throw invalid(); // closed or expired between the two statements
      return tokenPair(app, s.account_id, s.id, req.body.refresh_token);
    },
  );
}
