/**
 * One example request and its answer per operation (issue 10, point 7), declared beside the
 * route's schemas as `config: { example }` and written into the OpenAPI document by the document
 * pass (`finish.ts`): path and query values become the parameters' `example`, `body` the request
 * body's, `response` the success answer's. `test/foundation/openapi-examples.test.ts` sends every
 * example request to the running API and holds the answer to the documented schema and to the
 * example's shape, so an example cannot drift from what clients get.
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
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The operation's example request and answer, for the OpenAPI document. */
    example?: OperationExample;
  }
}
