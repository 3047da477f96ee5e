import fc from 'fast-check';

/** A JSON Schema (2020-12, as OpenAPI 3.1 writes it), loosely typed: the document is data. */
export type Schema = Record<string, any>;

/** Values the fuzzer knows to exist (ids, slugs, the fuzz account's email), by property name. */
export type KnownValues = Map<string, string[]>;

export interface ArbitraryContext {
  /** `#/components/schemas/X` → the schema. */
  resolve(ref: string): Schema;
  known: KnownValues;
}

const MAX_DEPTH = 6;

/**
 * Values of the documented shape, from a schema: what a correct client could send. Strings keep
 * to their pattern, format, length and enum; numbers to their bounds; objects carry every
 * required property and some optional ones. Property names the fuzzer has real values for (ids,
 * slugs) are sometimes given one, so that requests reach past "not found".
 */
export function arbitraryOf(
  schema: Schema | undefined,
  ctx: ArbitraryContext,
  name = '',
  depth = 0,
): fc.Arbitrary<unknown> {
  const base = shapeOf(schema, ctx, name, depth);
  const known = ctx.known.get(name);
  return known?.length
    ? fc.oneof({ arbitrary: base, weight: 1 }, { arbitrary: fc.constantFrom(...known), weight: 2 })
    : base;
}

function shapeOf(
  schema: Schema | undefined,
  ctx: ArbitraryContext,
  name: string,
  depth: number,
): fc.Arbitrary<unknown> {
  if (!schema || typeof schema !== 'object') return fc.jsonValue({ maxDepth: 1 });
  if (schema.$ref) return arbitraryOf(ctx.resolve(schema.$ref), ctx, name, depth);
  if (depth > MAX_DEPTH) return fc.constant(null);
  if ('const' in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  const alternatives = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (alternatives?.length) return fc.oneof(...alternatives.map((s) => arbitraryOf(s, ctx, name, depth + 1)));
  if (Array.isArray(schema.allOf) && schema.allOf.length === 1) return arbitraryOf(schema.allOf[0], ctx, name, depth);
  const type = schema.type;
  if (Array.isArray(type))
    return fc.oneof(...type.map((t: string) => shapeOf({ ...schema, type: t }, ctx, name, depth)));
  switch (type) {
    case 'string':
      return stringOf(schema);
    case 'integer':
      return fc.integer({
        min: Math.max(schema.minimum ?? -1_000_000, Number.MIN_SAFE_INTEGER),
        max: Math.min(schema.maximum ?? 1_000_000, Number.MAX_SAFE_INTEGER),
      });
    case 'number':
      return fc.double({
        min: schema.minimum ?? -1e6,
        max: schema.maximum ?? 1e6,
        noNaN: true,
        noDefaultInfinity: true,
      });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      if (Array.isArray(schema.prefixItems)) {
        return fc.tuple(...(schema.prefixItems as Schema[]).map((s) => arbitraryOf(s, ctx, name, depth + 1)));
      }
      const minLength = schema.minItems ?? 0;
      return fc.array(arbitraryOf(schema.items, ctx, name, depth + 1), {
        minLength,
        maxLength: Math.max(minLength, Math.min(schema.maxItems ?? 4, 4)),
      });
    }
    case 'object':
      return objectOf(schema, ctx, depth);
    default:
      if (schema.properties) return objectOf(schema, ctx, depth);
      return fc.jsonValue({ maxDepth: 1 });
  }
}

function objectOf(schema: Schema, ctx: ArbitraryContext, depth: number): fc.Arbitrary<unknown> {
  const props = (schema.properties ?? {}) as Record<string, Schema>;
  const required = new Set<string>(schema.required ?? []);
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [k, s] of Object.entries(props)) model[k] = arbitraryOf(s, ctx, k, depth + 1);
  const fixed = fc.record(model, { requiredKeys: Object.keys(props).filter((k) => required.has(k)) });
  const extra = schema.additionalProperties;
  if (extra && typeof extra === 'object' && Object.keys(props).length === 0) {
    return fc.dictionary(fc.string({ minLength: 1, maxLength: 12 }), arbitraryOf(extra, ctx, '', depth + 1), {
      maxKeys: 4,
    });
  }
  return fixed;
}

const DAY_MS = 86_400_000;

/** Days around today: what a client asks for (the catalog's events lie there). */
const nearDate = () =>
  fc.integer({ min: -10, max: 120 }).map((d) => new Date(Date.now() + d * DAY_MS).toISOString().slice(0, 10));

const FORMAT: Record<string, () => fc.Arbitrary<string>> = {
  uuid: () => fc.uuid(),
  email: () =>
    fc.oneof(
      { arbitrary: fc.stringMatching(/^[a-z][a-z0-9]{3,12}$/).map((s) => `${s}@example.com`), weight: 4 },
      { arbitrary: fc.emailAddress(), weight: 1 },
    ),
  date: nearDate,
  'date-time': () =>
    fc
      .date({ min: new Date('2020-01-01T00:00:00Z'), max: new Date('2031-12-31T00:00:00Z'), noInvalidDate: true })
      .map((d) => d.toISOString()),
};

function stringOf(schema: Schema): fc.Arbitrary<string> {
  const minLength = schema.minLength ?? 0;
  const maxLength = schema.maxLength ?? 64;
  const fit = (a: fc.Arbitrary<string>) => a.filter((s) => s.length >= minLength && s.length <= maxLength);
  const format = FORMAT[schema.format as string];
  if (format) return fit(format());
  if (schema.pattern === '^\\d{4}-\\d{2}-\\d{2}$') return nearDate();
  if (typeof schema.pattern === 'string') {
    try {
      return fit(fc.stringMatching(new RegExp(schema.pattern)).map((s) => s.slice(0, maxLength)));
    } catch {
      // a pattern fast-check cannot generate from: plain strings below
    }
  }
  const cap = Math.max(minLength, Math.min(maxLength, 64));
  return fc.oneof(
    { arbitrary: fc.string({ minLength, maxLength: cap }), weight: 4 },
    { arbitrary: fc.string({ minLength, maxLength: cap, unit: 'grapheme' }), weight: 1 },
  );
}
