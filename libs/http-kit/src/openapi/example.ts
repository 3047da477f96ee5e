import type { ErrorCode } from '../errors/codes.ts';

/**
 * What a route says about itself for the OpenAPI document, declared beside its schemas: the
 * schema carries `operationId`, `tags`, `summary` and `description` (Fastify's own keys), the
 * route's `config` the rest (`errors`, `conditional`, `example`, `idempotent`). The document pass
 * (`finish.ts`) writes them into the operation; no table elsewhere names an operation.
 */

/** A tag of the document: the apps declare theirs (`AppPlugin.tags`), the routes name them. */
export interface OpenApiTag {
  name: string;
  description: string;
}

/**
 * One example request and its answer per operation, written into the OpenAPI document by the
 * document pass (`finish.ts`): path and query values become the parameters' `example`, `body` the
 * request body's, `response` the success answer's. `test/foundation/openapi-examples.test.ts`
 * sends every example request to the running API, in the order `after` and `last` give, and holds
 * the answer to the documented schema and to the example's shape, so an example cannot drift from
 * what clients get.
 */
export interface OperationExample {
  /** Path parameters of the example request, by name. */
  params?: Record<string, string | number>;
  /** Query parameters of the example request, by name (as the client writes them). */
  query?: Record<string, string | number | boolean>;
  /** The request body (JSON; for multipart, the form fields with a description of the file). */
  body?: unknown;
  /** The success answer's JSON body for that request; absent when it has none (204, a file). */
  response?: unknown;
  /**
   * The success answer is a file of this media type (`image/jpeg`, or a range such as `*\/*`), not
   * JSON: the document says so, with a binary schema, instead of the route's placeholder schema.
   */
  file?: string;
  /**
   * The operations (`operationId`) whose examples must have been sent before this one's: it uses
   * what they leave (an uploaded file, a mailed token, a saved favorite).
   */
  after?: string[];
  /** This example ends what the others use (the account): it is sent after every other. */
  last?: true;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The error codes the operation answers with, besides those every operation may
     * (`internal_error`, `unavailable`; `rate_limited` where rate-limited; `account_restricted`
     * behind a guard that refuses restricted accounts): the document lists them per status.
     */
    errors?: ErrorCode[];
    /** The answer carries an `ETag` and a request with a matching `If-None-Match` gets 304. */
    conditional?: true;
    /** The operation's example request and answer, for the OpenAPI document. */
    example?: OperationExample;
  }
}
