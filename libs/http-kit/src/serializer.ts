import fastJson from 'fast-json-stringify';
import { serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';

type Json = Record<string, unknown>;
type CompileInput = { schema: unknown; method: string; url: string; httpStatus?: string };

/** Thrown when an answer does not fit its schema: a defect of the server, answered with 500. */
export class ResponseShapeError extends Error {
  constructor(method: string, url: string, cause: unknown) {
    super(`The response of ${method} ${url} does not match its schema`, { cause });
    this.name = 'ResponseShapeError';
  }
}

/**
 * fast-json-stringify writes the required properties of an object first: where an optional one
 * comes before a required one, its output would change the order of the answer's keys.
 */
function keepsOrder(node: unknown): boolean {
  if (Array.isArray(node)) return node.every(keepsOrder);
  if (!node || typeof node !== 'object') return true;
  const o = node as Json;
  if (o.properties && typeof o.properties === 'object') {
    const required = new Set(Array.isArray(o.required) ? (o.required as string[]) : []);
    let optionalSeen = false;
    for (const key of Object.keys(o.properties as Json)) {
      if (!required.has(key)) optionalSeen = true;
      else if (optionalSeen) return false;
    }
  }
  return Object.values(o).every(keepsOrder);
}

/**
 * `anyOf: [X, {type: 'null'}]` (zod's `.nullable()`) as `X` with `nullable: true`, which
 * fast-json-stringify writes directly instead of trying each branch with a validator.
 */
function simplify(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(simplify);
  if (!node || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [k, v] of Object.entries(node as Json)) out[k] = simplify(v);
  const any = out.anyOf;
  if (Array.isArray(any) && any.length === 2) {
    const nullIdx = any.findIndex((s) => (s as Json)?.type === 'null' && Object.keys(s as Json).length === 1);
    const other = any[1 - nullIdx] as Json | undefined;
    if (nullIdx >= 0 && other && typeof other.type === 'string' && !('anyOf' in other)) {
      delete out.anyOf;
      return { ...other, ...out, nullable: true };
    }
  }
  return out;
}

/**
 * Response serializers precompiled from the routes' own zod schemas: each response schema is
 * turned into JSON Schema once, at start, and compiled with fast-json-stringify (what Fastify
 * itself uses for JSON Schema routes), instead of walking the answer through zod and then
 * `JSON.stringify` on every request. The output is the same JSON: the properties the schema
 * declares, in its order, extra ones dropped (zod strips them too); a required property that
 * is missing is a 500, as zod's refusal was. A schema JSON Schema cannot express (a transform),
 * or one whose keys fast-json-stringify would reorder (an optional property before a required
 * one), keeps zod's serializer.
 */
export function precompiledSerializerCompiler(input: CompileInput): (data: unknown) => string {
  const zodSerializer = zodSerializerCompiler(input as never) as (data: unknown) => string;
  const schema = input.schema;
  if (!(schema instanceof z.ZodType)) return zodSerializer;
  let stringify: (data: unknown) => string;
  try {
    const json = z.toJSONSchema(schema, {
      io: 'output',
      target: 'draft-7',
      reused: 'inline',
      // Ids (for the OpenAPI document) would become `$ref`s; here every schema is inlined.
      metadata: z.registry(),
      unrepresentable: 'throw',
      cycles: 'throw',
    }) as Json;
    delete json.$schema;
    if (!keepsOrder(json)) return zodSerializer;
    stringify = fastJson(simplify(json) as never) as (data: unknown) => string;
  } catch {
    return zodSerializer;
  }
  return (data: unknown) => {
    try {
      return stringify(data);
    } catch (err) {
      throw new ResponseShapeError(input.method, input.url, err);
    }
  };
}
