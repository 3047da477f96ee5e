import FindMyWay, { type HTTPMethod } from 'find-my-way';
import type { FastifyInstance } from 'fastify';

const METHODS: HTTPMethod[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/**
 * Fastify answers 404 for a known path with an unknown method. This keeps a shadow router of
 * every route so the not-found handler can tell 405 (with `Allow`) from a real 404.
 */
export function trackRoutes(app: FastifyInstance): (method: string, url: string) => string[] {
  const shadow = FindMyWay({ ignoreTrailingSlash: false });
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const m of methods) {
      if (!METHODS.includes(m as HTTPMethod)) continue;
      try {
        shadow.on(m as HTTPMethod, route.url, () => {});
      } catch {
        // the same method and path registered twice (e.g. HEAD added by fastify): already known
      }
    }
  });
  return (method, url) => {
    const path = url.split('?')[0] ?? url;
    return METHODS.filter((m) => m !== method && shadow.find(m, path) !== null);
  };
}
