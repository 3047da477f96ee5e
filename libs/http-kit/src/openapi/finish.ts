import { STATUS_CODES } from 'node:http';
import { isDeepStrictEqual } from 'node:util';
import { ERROR_CODES, type ErrorCode } from '../errors/codes.ts';
import { IDEMPOTENCY_KEY_DESCRIPTION, IDEMPOTENCY_KEY_PATTERN } from '../idempotency.ts';
import type { OpenApiTag, OperationExample } from './example.ts';

type Json = Record<string, any>;

/** Route facts the per-route transform records for the document pass (`x-` keys reach the operation). */
export const ROUTE_FACTS = {
  idempotent: 'x-guest-idempotent',
  rateLimited: 'x-guest-rate-limited',
  restrictable: 'x-guest-restrictable',
  example: 'x-guest-example',
  errors: 'x-guest-errors',
  conditional: 'x-guest-conditional',
  optionalBody: 'x-guest-optional-body',
} as const;

/**
 * The error codes of one response, on the response object: every error response's body is the one
 * `ErrorEnvelope` type (a generator makes one class of it, not one per operation and status), and
 * this list says which `code` values that operation answers with under that status.
 */
export const ERROR_CODES_KEY = 'x-error-codes';

/**
 * Set by a sign-in guard on its hook function (libs/auth), read by the OpenAPI transform: a
 * route whose guard answers 403 `account_restricted` to a restricted account's token.
 */
export const GUARD_FACTS = Symbol.for('guest.guard-facts');
export interface GuardFacts {
  restrictable: boolean;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const;

/** Codes every operation may answer with, whatever it declares: a fault, and a dependency or the server going away. */
const EVERY_OPERATION: ErrorCode[] = ['internal_error', 'unavailable'];

/**
 * Codes of every operation, named in its description: the input screen (input-screen.ts) refuses
 * text that cannot be stored (NUL, a lone surrogate) anywhere in a query string, path or body, on
 * every route and before any schema, and every operation takes a query (`lang`).
 */
const SCREENED: ErrorCode[] = ['validation_error'];

/**
 * Codes of every operation that takes a request body (any POST, PUT, PATCH or DELETE: the body is
 * read before the route runs): a body over the size limit, a content type no parser reads.
 */
const WITH_BODY: ErrorCode[] = ['payload_too_large', 'unsupported_media_type'];
const BODY_METHODS = new Set(['post', 'put', 'patch', 'delete']);

/**
 * Codes of every operation that takes `Idempotency-Key`: a malformed key, and 409 when the first
 * request with the key is still running (`in_flight`) or the key came with another (`key_reused`).
 */
const IDEMPOTENT: ErrorCode[] = ['validation_error', 'conflict'];

const HEADERS: Json = {
  XRequestId: {
    description:
      'Id of this request (a well-formed incoming `X-Request-Id` is kept); quote it when reporting a problem.',
    schema: { type: 'string' },
  },
  RetryAfter: { description: 'Seconds to wait before retrying.', schema: { type: 'integer', minimum: 0 } },
  ETag: { description: 'Version of this representation; send it back in `If-None-Match`.', schema: { type: 'string' } },
  RateLimit: {
    description: 'Remaining quota of the limit that applies (IETF draft `RateLimit` header fields).',
    schema: { type: 'string' },
  },
  RateLimitPolicy: {
    description: 'The quota policies that apply (IETF draft `RateLimit-Policy`).',
    schema: { type: 'string' },
  },
};

const PARAMETERS: Json = {
  AcceptLanguage: {
    name: 'Accept-Language',
    in: 'header',
    required: false,
    description:
      "Preferred languages of the answer's texts (`en`, `ru`, `th`, `zh-Hans`); `lang`, where offered, wins.",
    schema: { type: 'string', maxLength: 512 },
  },
  IfNoneMatch: {
    name: 'If-None-Match',
    in: 'header',
    required: false,
    description: 'The `ETag` of a copy the client holds: 304 without a body when it is still current.',
    schema: { type: 'string', maxLength: 512 },
  },
  Lang: {
    name: 'lang',
    in: 'query',
    required: false,
    description:
      "Language of the answer's texts (`en`, `ru`, `th`, `zh-Hans`); wins over `Accept-Language`. " +
      'Any tag is accepted: one that names no supported language falls back to `Accept-Language`, then English.',
    schema: { type: 'string' },
    example: 'en',
  },
  IdempotencyKey: {
    name: 'Idempotency-Key',
    in: 'header',
    required: false,
    description: IDEMPOTENCY_KEY_DESCRIPTION,
    schema: { type: 'string', pattern: IDEMPOTENCY_KEY_PATTERN },
    example: '7f0c2a4e-3b1d-4c9a-9e8f-5a6b7c8d9e0f',
  },
};

/**
 * Text meant for the team (references to the design notes and sections of the specification) is
 * left out of the public document: clients cannot open those files.
 */
function publicText(text: string): string {
  return text
    .replace(/\s*\((?:[^()]*?)\b(?:DESIGN|spec|specification)\b(?:[^()]*?)\)/g, '')
    .replace(/\s*\b(?:DESIGN(?:\.md)?|spec)\s+(?:section\s+)?[0-9]+[0-9A-Za-z.]*(?:\s*,\s*[0-9]+[0-9A-Za-z.]*)*/g, '')
    .replace(/\s+([.,;:])/g, '$1');
}

function walk(node: unknown, visit: (obj: Json) => void): void {
  if (Array.isArray(node)) for (const v of node) walk(v, visit);
  else if (node && typeof node === 'object') {
    visit(node as Json);
    for (const v of Object.values(node)) walk(v, visit);
  }
}

/** A query boolean is `true`/`false`/`1`/`0` on the wire; generators must see a boolean. */
function booleanParameter(schema: Json): Json | null {
  if (!Array.isArray(schema.enum) || !isDeepStrictEqual([...schema.enum].sort(), ['0', '1', 'false', 'true']))
    return null;
  const out: Json = { type: 'boolean' };
  if (schema.description) out.description = schema.description;
  for (const [k, v] of Object.entries(schema)) if (k.startsWith('x-')) out[k] = v;
  if (schema.default !== undefined) out.default = schema.default === 'true' || schema.default === '1';
  return out;
}

function finishOperation(path: string, method: string, op: Json): void {
  // Public operations say so: without `security`, a reader cannot tell public from forgotten.
  op.security ??= [];

  const idempotent = op[ROUTE_FACTS.idempotent] === true;
  const rateLimited = op[ROUTE_FACTS.rateLimited] === true;
  const restrictable = op[ROUTE_FACTS.restrictable] === true;
  const example = op[ROUTE_FACTS.example] as OperationExample | undefined;
  const declared = (op[ROUTE_FACTS.errors] as ErrorCode[] | undefined) ?? [];
  const conditional = op[ROUTE_FACTS.conditional] === true;
  const optionalBody = op[ROUTE_FACTS.optionalBody] === true;
  for (const fact of Object.values(ROUTE_FACTS)) delete op[fact];

  const params: Json[] = (op.parameters ?? []).filter(
    (p: Json) => !(p.in === 'header' && /^(accept-language|if-none-match|idempotency-key)$/i.test(p.name)),
  );
  for (const p of params) {
    const bool = p.schema && booleanParameter(p.schema);
    if (bool) p.schema = bool;
    // A list is the parameter repeated (`a=x&a=y`); the server also reads `a=x,y`.
    if (p.in === 'query' && p.schema?.type === 'array') Object.assign(p, { style: 'form', explode: true });
  }
  // Every request's language is negotiated from `lang`, else `Accept-Language` (server.ts): both
  // are parameters of every operation; a route may declare its own `lang`.
  if (!params.some((p) => p.in === 'query' && p.name === 'lang')) params.push({ $ref: '#/components/parameters/Lang' });
  params.push({ $ref: '#/components/parameters/AcceptLanguage' });
  if (conditional) params.push({ $ref: '#/components/parameters/IfNoneMatch' });
  if (idempotent) params.push({ $ref: '#/components/parameters/IdempotencyKey' });
  op.parameters = params;
  // A body the route takes or not (`.optional()`): a client may send none.
  if (optionalBody && op.requestBody) op.requestBody.required = false;
  if (example) applyExample(path, op, example);

  // The codes the operation answers with: its own, and those of every operation, of every
  // rate-limited one (its quota spent) and of every one behind a guard that turns a restricted
  // account's token away before the route runs.
  const codes = [
    ...new Set<ErrorCode>([
      ...declared,
      ...SCREENED,
      ...(idempotent ? IDEMPOTENT : []),
      ...(BODY_METHODS.has(method) ? WITH_BODY : []),
      ...(rateLimited ? (['rate_limited'] as const) : []),
      ...(restrictable ? (['account_restricted'] as const) : []),
      ...EVERY_OPERATION,
    ]),
  ];
  // The description names them all but those of every operation, as a reader scanning it expects.
  const named = codes.filter((c) => !EVERY_OPERATION.includes(c));
  if (named.length) {
    const own = named.map((c) => `\`${c}\` (${ERROR_CODES[c]})`).join(', ');
    const text = typeof op.description === 'string' ? op.description.trim() : '';
    op.description = `${text ? `${text} ` : ''}Errors: ${own}.`;
  }
  const responses: Json = (op.responses ??= {});
  for (const code of codes) {
    // A status the route answers with a body of its own (a 503 health report) keeps it.
    responses[String(ERROR_CODES[code])] ??= { content: { 'application/json': { schema: {} } } };
  }
  for (const [status, response] of Object.entries(responses) as Array<[string, Json]>) {
    const n = Number(status);
    const headers: Json = { 'X-Request-Id': { $ref: '#/components/headers/XRequestId' } };
    if (n === 429 || n === 503) headers['Retry-After'] = { $ref: '#/components/headers/RetryAfter' };
    if (conditional && (n === 200 || n === 304)) headers.ETag = { $ref: '#/components/headers/ETag' };
    if (rateLimited) {
      headers.RateLimit = { $ref: '#/components/headers/RateLimit' };
      headers['RateLimit-Policy'] = { $ref: '#/components/headers/RateLimitPolicy' };
    }
    response.headers = { ...response.headers, ...headers };
    if (n >= 400) {
      const ofStatus = codes.filter((c) => ERROR_CODES[c] === n);
      const json = response.content?.['application/json'];
      // A placeholder schema (no route schema for this status) becomes the envelope, its codes listed beside.
      if (json && ofStatus.length && Object.keys(json.schema ?? {}).length === 0) {
        json.schema = { $ref: '#/components/schemas/ErrorEnvelope' };
        response[ERROR_CODES_KEY] = ofStatus;
      }
      if (!response.description || response.description === 'Default Response')
        response.description = `${STATUS_CODES[n] ?? 'Error'}: ${ofStatus.map((c) => `\`${c}\``).join(', ')}.`;
    } else if (!response.description || response.description === 'Default Response') {
      response.description = STATUS_CODES[n] ?? 'Success';
    }
  }
}

/** Writes a route's example into its operation: parameters, request body, success answer. */
function applyExample(path: string, op: Json, example: OperationExample): void {
  for (const p of op.parameters as Json[]) {
    const value = p.in === 'path' ? example.params?.[p.name] : p.in === 'query' ? example.query?.[p.name] : undefined;
    if (value === undefined) continue;
    // A list parameter takes its values repeated or comma-separated: the document's example is the array.
    p.example = p.schema?.type === 'array' && typeof value === 'string' ? value.split(',') : value;
  }
  // The map proxy's wildcard is `path` in the document (`*` in the route).
  if (path.endsWith('/{path}') && example.params?.['*'] !== undefined) {
    const p = (op.parameters as Json[]).find((x) => x.in === 'path' && x.name === 'path');
    if (p) p.example = example.params['*'];
  }
  if (example.body !== undefined) {
    for (const media of Object.values<Json>(op.requestBody?.content ?? {})) media.example = example.body;
  }
  const success = Object.keys(op.responses ?? {})
    .filter((s) => Number(s) >= 200 && Number(s) < 300)
    .sort()[0];
  if (!success) return;
  if (example.file) {
    op.responses[success].content = { [example.file]: { schema: { type: 'string', format: 'binary' } } };
  } else if (example.response !== undefined) {
    const media = op.responses[success].content?.['application/json'];
    if (media) media.example = example.response;
  }
}

/** Renames `XInput` to `X` where `X` is unused, and merges twins that are the same schema. */
function mergeTwins(doc: Json, used: Set<string>): void {
  const schemas: Json = doc.components.schemas;
  const rename = new Map<string, string>();
  for (const name of Object.keys(schemas)) {
    if (!name.endsWith('Input')) continue;
    const base = name.slice(0, -'Input'.length);
    if (!(base in schemas)) continue;
    if (!used.has(base) || isDeepStrictEqual(schemas[base], schemas[name])) rename.set(name, base);
  }
  if (!rename.size) return;
  for (const [from, to] of rename) {
    schemas[to] = schemas[from];
    delete schemas[from];
  }
  walk(doc, (obj) => {
    if (typeof obj.$ref === 'string') {
      const name = obj.$ref.replace('#/components/schemas/', '');
      const to = rename.get(name);
      if (to) obj.$ref = `#/components/schemas/${to}`;
    }
  });
}

/** Names of the component schemas reachable from the paths. */
function reachable(doc: Json): Set<string> {
  const schemas: Json = doc.components?.schemas ?? {};
  const seen = new Set<string>();
  const queue: unknown[] = [doc.paths, doc.components?.parameters, doc.components?.headers];
  while (queue.length) {
    walk(queue.pop(), (obj) => {
      if (typeof obj.$ref !== 'string' || !obj.$ref.startsWith('#/components/schemas/')) return;
      const name = obj.$ref.slice('#/components/schemas/'.length);
      if (seen.has(name)) return;
      seen.add(name);
      queue.push(schemas[name]);
    });
  }
  return seen;
}

/**
 * Finishes the generated document into the one clients and tools get: `security: []` on public
 * operations, the routes' facts (their error codes, conditional answers, examples, an optional
 * body), the headers and parameters of the conventions (`lang`, `Accept-Language`), every error
 * response as the one `ErrorEnvelope` with its codes in `x-error-codes`, booleans as booleans,
 * lists as repeated parameters, the map proxy's path as a
 * parameter, and only the component schemas the operations use (no fragment `$id`, no twins).
 */
export function finishDocument(
  doc: Json,
  opts: { servers: Array<{ url: string; description: string }>; tags: OpenApiTag[] },
): Json {
  doc.servers = opts.servers;
  const paths: Json = {};
  for (const [rawPath, item] of Object.entries(doc.paths ?? {}) as Array<[string, Json]>) {
    let path = rawPath;
    // The map proxy's wildcard: a named parameter that may hold slashes, so generators can call it.
    if (rawPath.endsWith('/{*}')) {
      path = rawPath.replace(/\{\*\}$/, '{path}');
      for (const method of METHODS) {
        for (const p of item[method]?.parameters ?? []) {
          if (p.in === 'path' && p.name === '*') {
            p.name = 'path';
            p.description =
              `${p.description ?? ''} The value may contain \`/\`: send its slashes as they are (not \`%2F\`).`.trim();
            p.schema = { ...p.schema, pattern: '^[^?#]+$' };
          }
        }
      }
    }
    for (const method of METHODS) if (item[method]) finishOperation(path, method, item[method]);
    paths[path] = item;
  }
  doc.paths = paths;

  const usedTags = new Set<string>();
  walk(doc.paths, (obj) => {
    if (Array.isArray(obj.tags)) for (const t of obj.tags) if (typeof t === 'string') usedTags.add(t);
  });
  // The tags the apps declare, in their order; one a route names and no app declares is kept bare.
  doc.tags = [
    ...opts.tags.filter((t) => usedTags.has(t.name)),
    ...[...usedTags].filter((t) => !opts.tags.some((k) => k.name === t)).map((name) => ({ name, description: name })),
  ];

  doc.components ??= {};
  doc.components.schemas ??= {};
  doc.components.headers = { ...doc.components.headers, ...HEADERS };
  doc.components.parameters = { ...doc.components.parameters, ...PARAMETERS };

  walk(doc, (obj) => {
    // A fragment `$id` makes renderers treat the schema as a separate resource they cannot see.
    if (typeof obj.$id === 'string') delete obj.$id;
    if (typeof obj.$schema === 'string') delete obj.$schema;
    // A fixed-length tuple (`bbox`) closes with `items: false`; the same constraint said with
    // `items` naming the element schema (and `maxItems`) is what linters and older tools read.
    if (Array.isArray(obj.prefixItems) && obj.items === false && typeof obj.maxItems === 'number') {
      const first = obj.prefixItems[0];
      obj.items = obj.prefixItems.every((s: unknown) => isDeepStrictEqual(s, first))
        ? first
        : { anyOf: obj.prefixItems };
    }
    for (const k of ['description', 'summary'] as const) if (typeof obj[k] === 'string') obj[k] = publicText(obj[k]);
  });

  mergeTwins(doc, reachable(doc));
  const used = reachable(doc);
  for (const name of Object.keys(doc.components.schemas)) if (!used.has(name)) delete doc.components.schemas[name];
  // An app served alone has no idempotent or conditional operation, maybe: no unused parts.
  const text = JSON.stringify(doc.paths);
  for (const part of ['parameters', 'headers'] as const) {
    for (const name of Object.keys(doc.components[part])) {
      if (!text.includes(`"#/components/${part}/${name}"`)) delete doc.components[part][name];
    }
  }
  return doc;
}
