import type { FastifyInstance } from 'fastify';

/**
 * JSON bodies, with one difference from Fastify's parser: an empty body (nothing, or only
 * whitespace) sent with `Content-Type: application/json` is "no body", as most HTTP stacks send
 * that header by default even on a bodiless POST (logout, ws-ticket, delete-request…). A route
 * whose body is optional or absent then runs; one that needs a body answers 422 `schema_invalid`
 * as for any missing body. Anything else is parsed as before: prototype pollution refused,
 * malformed JSON is 400 `malformed_json`.
 */
export function registerJsonBody(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    if ((body as string).trim() === '') return done(null, undefined);
    return parse(req, body as string, done);
  });
}
