import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { z } from 'zod';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { finishDocument, GUARD_FACTS, ROUTE_FACTS, type GuardFacts } from './openapi/finish.ts';
import type { OpenApiTag, OperationExample } from './openapi/example.ts';
import type { ErrorCode } from './errors/codes.ts';

type Transform = typeof jsonSchemaTransform;

/**
 * Query, path and header parameters must be inline objects in OpenAPI (each property becomes a
 * parameter), but a zod schema that carries an OpenAPI id would be emitted as a `$ref`. Such
 * parameter schemas are converted again here without the registry, so routes may reuse a named
 * filter schema freely.
 */
const transform: Transform = (input) => {
  const out = jsonSchemaTransform(input) as { schema: Record<string, any>; url: string };
  const original = (input.schema ?? {}) as Record<string, unknown>;
  // Facts only the route knows, for the document pass (finish.ts), which sees operations only.
  out.schema ??= {};
  const config = (input.route?.config ?? {}) as {
    idempotent?: boolean;
    rateLimitExempt?: boolean;
    example?: OperationExample;
    errors?: ErrorCode[];
    conditional?: true;
  };
  if (config.idempotent) out.schema[ROUTE_FACTS.idempotent] = true;
  if (config.example) out.schema[ROUTE_FACTS.example] = config.example;
  if (config.errors) out.schema[ROUTE_FACTS.errors] = config.errors;
  if (config.conditional) out.schema[ROUTE_FACTS.conditional] = true;
  // A body schema that takes "nothing" (`.optional()`): the document says the body is not required.
  if (original.body && (original.body as z.ZodType).safeParse(undefined).success) {
    out.schema[ROUTE_FACTS.optionalBody] = true;
  }
  if (!config.rateLimitExempt) out.schema[ROUTE_FACTS.rateLimited] = true;
  const hooks = [input.route?.onRequest ?? []].flat() as Array<{ [GUARD_FACTS]?: GuardFacts }>;
  if (hooks.some((h) => h[GUARD_FACTS]?.restrictable)) out.schema[ROUTE_FACTS.restrictable] = true;
  for (const part of ['querystring', 'params', 'headers'] as const) {
    const converted = out.schema?.[part];
    if (converted && typeof converted === 'object' && '$ref' in converted && original[part]) {
      const inline = z.toJSONSchema(original[part] as z.ZodType, {
        io: 'input',
        metadata: z.registry(),
        unrepresentable: 'any',
        target: 'draft-2020-12',
      }) as Record<string, unknown>;
      delete inline.$schema;
      out.schema[part] = inline;
    }
  }
  return out as ReturnType<Transform>;
};

/**
 * The Content-Security-Policy of `/docs` (Swagger UI): its own files only, no inline script, and
 * no inline style but the ones Swagger UI's scripts write, allowed by their hashes. Those are the
 * `<style>` elements its bundles create from string literals (the logo's SVG); they are found in
 * the installed bundles at start, so an upgrade that changes them keeps working, and nothing else
 * inline is allowed ('unsafe-inline' would let an injected style through).
 */
export function docsContentSecurityPolicy(): string {
  const dir = path.join(path.dirname(createRequire(import.meta.url).resolve('@fastify/swagger-ui')), 'static');
  const hashes = new Set<string>();
  for (const file of ['swagger-ui-bundle.js', 'swagger-ui-standalone-preset.js']) {
    const code = readFileSync(path.join(dir, file), 'utf8');
    for (const m of code.matchAll(/createElement\("style",null,("(?:[^"\\]|\\.)*")\)/g)) {
      const css = JSON.parse(m[1]!) as string;
      hashes.add(`'sha256-${createHash('sha256').update(css).digest('base64')}'`);
    }
  }
  return [
    "default-src 'self'",
    "base-uri 'self'",
    "font-src 'self' data:",
    "frame-ancestors 'self'",
    "img-src 'self' data:",
    "object-src 'none'",
    "script-src 'self'",
    "script-src-attr 'none'",
    `style-src 'self' ${[...hashes].join(' ')}`.trim(),
    "form-action 'self'",
  ].join('; ');
}

let docsCsp: string | undefined;

/** Interface version label (spec section 9): changes with every published interface revision. */
export const INTERFACE_VERSION = '26.11.21';

/** The tags of the server's own routes (health, readiness); each app declares its own. */
const SERVER_TAGS: OpenApiTag[] = [{ name: 'monitoring', description: 'Health of the service.' }];

export async function registerOpenApi(app: FastifyInstance, appTags: OpenApiTag[] = []): Promise<void> {
  const tags = [...appTags, ...SERVER_TAGS];
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Guest Discovery and Booking API',
        version: INTERFACE_VERSION,
        description:
          'Public API for guests of the travel marketplace. Errors always use the envelope ' +
          '`{error: {code, message, details, request_id}}` (one `ErrorEnvelope` schema; each error response lists the ' +
          '`code` values that operation answers with under that status in `x-error-codes`); every response carries ' +
          '`X-Request-Id`. ' +
          'Lists are cursor-paged: `next_cursor` is opaque and signed. Creating requests accept `Idempotency-Key`. ' +
          'The realtime socket `/v1/ws` (how to open and renew it, its messages and close codes) is described at ' +
          '[/docs/socket](/docs/socket), from its AsyncAPI 3 document [/v1/asyncapi.json](/v1/asyncapi.json).',
      },
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      },
    },
    transform,
    transformObject: (input) =>
      finishDocument(jsonSchemaTransformObject(input) as Record<string, any>, {
        // Relative: the document describes the server it was fetched from, whatever its host name.
        servers: [{ url: '/', description: 'The server that serves this document' }],
        tags,
      }) as ReturnType<typeof jsonSchemaTransformObject>,
  });
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    // Without `upgrade-insecure-requests`: the docs must work over plain HTTP on any host name (a
    // development machine, a LAN address), where it would turn their own requests into HTTPS ones.
    staticCSP: (docsCsp ??= docsContentSecurityPolicy()),
  });
  app.get('/v1/openapi.json', { schema: { hide: true } as never, config: { rateLimitExempt: true } }, async () =>
    app.swagger(),
  );
}
