import type { FastifyInstance } from 'fastify';
import type { AppPlugin } from '@guest/http-kit';
import { authOf, optionalAuth, requireAuth } from '@guest/auth';

/**
 * Routes that exist only in these tests: the guard used the way other features use it
 * (restrictions, optional sign-in, a caller still naming a wave-1 audience), before those features exist.
 */
async function guardProbe(app: FastifyInstance) {
  const echo = async (req: any) => ({ actor_id: req.actorId, auth: req.auth ?? null });
  app.get('/v1/_probe/auth/booking', { onRequest: requireAuth({ restrictions: ['booking'] }) }, async (req) =>
    echo(req),
  );
  app.get('/v1/_probe/auth/confirmed', { onRequest: requireAuth({ confirmed: true }) }, async (req) => ({
    session_id: authOf(req).sessionId,
  }));
  app.get('/v1/_probe/auth/optional', { onRequest: optionalAuth() }, echo);
}

export const guardProbeApp: AppPlugin = { name: 'guard-probe', plugin: guardProbe };
