import fc from 'fast-check';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { arbitraryOf, type ArbitraryContext, type KnownValues, type Schema } from './schema-arbitrary.ts';
import {
  brokenQuery,
  garbageBody,
  hostileHeaders,
  hostileJsonValue,
  hostilePathSegment,
  hostileString,
  junkAuthorization,
  labelled,
  rawJsonToken,
  wrongContentType,
  type Labelled,
} from './hostile.ts';
import type { RawRequest, RawResponse } from './raw-client.ts';

const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ??
  addFormatsModule) as unknown as (ajv: Ajv2020) => void;

export interface Parameter {
  name: string;
  in: 'query' | 'path' | 'header' | 'cookie';
  required: boolean;
  schema: Schema;
}

export interface Operation {
  /** `GET /v1/search/listings`: names the operation in counts and failures. */
  key: string;
  method: string;
  path: string;
  params: Parameter[];
  body?: { contentType: string; schema: Schema };
  auth: 'none' | 'required' | 'optional';
  /** Documented statuses. */
  statuses: Set<number>;
}

/** The operations of an OpenAPI 3.1 document, in document order. */
export function operationsOf(doc: any): Operation[] {
  const ops: Operation[] = [];
  for (const [path, item] of Object.entries<any>(doc.paths ?? {})) {
    for (const [method, op] of Object.entries<any>(item)) {
      if (!op || typeof op !== 'object' || !op.responses) continue;
      const content = op.requestBody?.content ?? {};
      const contentType = Object.keys(content)[0];
      const security = (op.security ?? []) as Array<Record<string, unknown>>;
      ops.push({
        key: `${method.toUpperCase()} ${path}`,
        method: method.toUpperCase(),
        path,
        params: (op.parameters ?? []).map((p: any) => ({
          name: p.name,
          in: p.in,
          required: Boolean(p.required),
          schema: p.schema ?? {},
        })),
        ...(contentType ? { body: { contentType, schema: content[contentType].schema ?? {} } } : {}),
        auth:
          security.length === 0 ? 'none' : security.some((s) => Object.keys(s).length === 0) ? 'optional' : 'required',
        statuses: new Set(Object.keys(op.responses).map(Number)),
      });
    }
  }
  return ops;
}

/**
 * The document's schemas for ajv: OpenAPI 3.1 schemas are JSON Schema 2020-12, but this document
 * gives each component an `$id` that is a bare fragment (`#/components/schemas/X`), which 2020-12
 * does not allow; the components are registered under one base URL instead, and every `$ref`
 * points there.
 */
export class DocumentSchemas {
  private readonly ajv: Ajv2020;
  private readonly compiled = new Map<string, ValidateFunction>();
  private readonly components: Record<string, Schema>;
  static readonly BASE = 'https://fuzz.invalid/openapi.json';

  constructor(private readonly doc: any) {
    this.ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: true });
    addFormats(this.ajv);
    this.components = doc.components?.schemas ?? {};
    this.ajv.addSchema({ $id: DocumentSchemas.BASE, components: { schemas: rebase(this.components) } });
  }

  resolve = (ref: string): Schema => {
    const name = ref.replace(/^#\/components\/schemas\//, '');
    const s = this.components[name];
    if (!s) throw new Error(`no schema ${ref}`);
    return s;
  };

  /** A validator for any schema of the document (cached by its text). */
  validator(schema: Schema): ValidateFunction {
    const key = JSON.stringify(schema);
    let v = this.compiled.get(key);
    if (!v) {
      v = this.ajv.compile(rebase(schema) as object);
      this.compiled.set(key, v);
    }
    return v;
  }

  /** The schema of an operation's answer with this status and content type, if it documents one. */
  responseSchema(op: Operation, status: number): Schema | undefined {
    const res = this.doc.paths?.[op.path]?.[op.method.toLowerCase()]?.responses?.[String(status)];
    return res?.content?.['application/json']?.schema;
  }

  describe(v: ValidateFunction): string {
    return (v.errors ?? [])
      .slice(0, 3)
      .map((e) => `${e.instancePath || '/'} ${e.message}`)
      .join('; ');
  }
}

function rebase(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(rebase);
  if (!value || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (k === '$id' || k === '$schema') continue;
    if (k === '$ref' && typeof v === 'string' && v.startsWith('#/')) out[k] = `${DocumentSchemas.BASE}${v}`;
    else if (k === 'example' || k === 'examples') out[k] = v;
    else out[k] = rebase(v);
  }
  return out;
}

/**
 * Who the request is sent as: the fuzz account with its `access_token` (the one token the guest
 * API accepts everywhere), nobody, or a junk token.
 */
export type AuthMode = 'signed-in' | 'anonymous' | 'junk';

export interface Tokens {
  access: string;
}

/** One generated request, before the current session's token is put in. */
export interface Plan {
  op: string;
  auth: AuthMode;
  junkAuthorization?: string;
  /** Path parameter → raw (URL-encoded) segment. */
  path: Record<string, string>;
  /** Query string after `?` (without it), raw. */
  query: string;
  headers: Record<string, string>;
  body?: Buffer;
  /** Empty for a well-formed request; else what was made hostile, e.g. `query limit: hex-number`. */
  hostile: string[];
  /** Set when the request is invalid per the document (then no 2xx may answer it): why. */
  invalid?: string;
  /** The body's kind, for the multipart upload: a real image, for a well-formed request. */
  note?: string;
}

/** Everything the plan builders need besides the operation. */
export interface FuzzContext {
  schemas: DocumentSchemas;
  known: KnownValues;
  /** A small real image for the avatar upload, so that well-formed uploads can succeed. */
  image: Buffer;
}

const BOUNDARY = 'fuzzBoundary7MA4YWxkTrZu0gW';

/**
 * Percent-encodes every UTF-16 unit outside the unreserved set, lone surrogates as the bytes
 * UTF-8 would give them (ED A0 80 …), which is not valid UTF-8: as a hostile client would.
 */
export function encodeLoose(s: string): string {
  let out = '';
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    if (/[A-Za-z0-9\-._~]/.test(ch)) {
      out += ch;
      continue;
    }
    for (const b of utf8Loose(cp)) out += `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

function utf8Loose(cp: number): number[] {
  if (cp < 0x80) return [cp];
  if (cp < 0x800) return [0xc0 | (cp >> 6), 0x80 | (cp & 63)];
  if (cp < 0x10000) return [0xe0 | (cp >> 12), 0x80 | ((cp >> 6) & 63), 0x80 | (cp & 63)];
  return [0xf0 | (cp >> 18), 0x80 | ((cp >> 12) & 63), 0x80 | ((cp >> 6) & 63), 0x80 | (cp & 63)];
}

function decodeLoose(v: string): string {
  try {
    return decodeURIComponent(v);
  } catch {
    return v;
  }
}

/** A parameter value as a URL carries it. */
function serialize(v: unknown): string[] {
  if (v === undefined) return [];
  if (Array.isArray(v)) return v.flatMap((x) => serialize(x));
  if (v === null) return ['null'];
  if (typeof v === 'object') return [JSON.stringify(v)];
  return [String(v)];
}

/**
 * Whether a query or path value (a string, as it travels) is valid for its documented schema:
 * integers are decimal digits only, within bounds; strings keep their pattern, format, enum and
 * length. Lists accept repeated parameters or commas.
 */
export function paramValueValid(schemas: DocumentSchemas, schema: Schema, values: string[]): boolean {
  const s = schema.$ref ? schemas.resolve(schema.$ref) : schema;
  const alternatives = (s.anyOf ?? s.oneOf) as Schema[] | undefined;
  if (alternatives) return alternatives.some((a) => paramValueValid(schemas, a, values));
  if (s.type === 'array') {
    const items = values.flatMap((v) => v.split(','));
    if (s.minItems !== undefined && items.length < s.minItems) return false;
    if (s.maxItems !== undefined && items.length > s.maxItems) return false;
    return items.every((i) => paramValueValid(schemas, s.items ?? {}, [i]));
  }
  if (values.length !== 1) return false;
  const v = values[0]!;
  const type = Array.isArray(s.type) ? s.type : [s.type];
  const within = (n: number) =>
    (s.minimum === undefined || n >= s.minimum) &&
    (s.maximum === undefined || n <= s.maximum) &&
    (s.exclusiveMinimum === undefined || n > s.exclusiveMinimum) &&
    (s.exclusiveMaximum === undefined || n < s.exclusiveMaximum);
  if (type.includes('integer') && /^-?\d+$/.test(v) && within(Number(v))) return true;
  if (type.includes('number') && /^-?\d+(\.\d+)?$/.test(v) && within(Number(v))) return true;
  if (type.includes('boolean') && ['true', 'false', '1', '0'].includes(v)) return true;
  if (type.includes('string') || s.type === undefined) {
    return schemas.validator(s)(v);
  }
  return false;
}

function known(ctx: FuzzContext, name: string): fc.Arbitrary<string> | undefined {
  const k = ctx.known.get(name);
  return k?.length ? fc.constantFrom(...k) : undefined;
}

/** Well-formed map resource paths (spec: the shapes listed for `path`). */
const mapResource: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('style.json', 'tiles.json', 'relief.json', 'sprites/streets.json', 'sprites/streets@2x.png'),
  fc
    .integer({ min: 0, max: 14 })
    .chain((z) =>
      fc
        .tuple(
          fc.integer({ min: 0, max: 2 ** z - 1 }),
          fc.integer({ min: 0, max: 2 ** z - 1 }),
          fc.constantFrom('pbf', 'png', 'webp'),
        )
        .map(([x, y, ext]) => `tiles/${z}/${x}/${y}.${ext}`),
    ),
  fc.integer({ min: 0, max: 255 }).map((i) => `fonts/Open%20Sans%20Regular/${i * 256}-${i * 256 + 255}.pbf`),
  fc
    .array(fc.constantFrom('tiles', 'fonts', '0', '1', 'x.pbf', 'style.json', '..', '%2F'), {
      minLength: 1,
      maxLength: 5,
    })
    .map((p) => p.join('/')),
);

function paramArbitrary(op: Operation, p: Parameter, ctx: FuzzContext, actx: ArbitraryContext): fc.Arbitrary<string[]> {
  if (op.path.startsWith('/v1/map/') && p.name === '*') return mapResource.map((s) => [s]);
  const real = known(ctx, p.name);
  const fromSchema = arbitraryOf(p.schema, actx, p.name).map((v) => serialize(v).map(encodeLoose));
  if (!real) return fromSchema;
  return fc.oneof(
    fromSchema,
    real.map((v) => [encodeLoose(v)]),
  );
}

function bodyText(value: unknown, raw: Map<string, string>): Buffer {
  let text = JSON.stringify(value) ?? 'null';
  for (const [marker, token] of raw) text = text.replace(JSON.stringify(marker), token);
  return Buffer.from(text);
}

function multipart(file: Buffer, filename: string, type: string, field = 'file'): Buffer {
  return Buffer.concat([
    Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`,
    ),
    file,
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ]);
}

/** Broken multipart bodies, each with the content type it is sent with. */
function brokenMultipart(image: Buffer): fc.Arbitrary<Labelled<{ body: Buffer; type: string }>> {
  const full = multipart(image, 'a.png', 'image/png');
  const ok = `multipart/form-data; boundary=${BOUNDARY}`;
  return fc.oneof(
    fc.integer({ min: 1, max: full.length - 1 }).map((n) => ({
      label: 'multipart-truncated',
      value: { body: full.subarray(0, n), type: ok },
    })),
    fc.constantFrom(
      { label: 'multipart-no-boundary', value: { body: full, type: 'multipart/form-data' } },
      { label: 'multipart-wrong-boundary', value: { body: full, type: 'multipart/form-data; boundary=other' } },
      { label: 'multipart-no-parts', value: { body: Buffer.from(`--${BOUNDARY}--\r\n`), type: ok } },
      { label: 'multipart-empty', value: { body: Buffer.alloc(0), type: ok } },
      { label: 'multipart-garbage', value: { body: Buffer.from('garbage without any boundary'), type: ok } },
      { label: 'multipart-wrong-field', value: { body: multipart(image, 'a.png', 'image/png', 'other'), type: ok } },
      { label: 'multipart-type-mismatch', value: { body: multipart(image, 'a.jpg', 'image/jpeg'), type: ok } },
      {
        label: 'multipart-not-image',
        value: { body: multipart(Buffer.from('%PDF-1.4 nope'), 'a.png', 'image/png'), type: ok },
      },
      { label: 'multipart-empty-file', value: { body: multipart(Buffer.alloc(0), 'a.png', 'image/png'), type: ok } },
      {
        label: 'multipart-nul-filename',
        value: { body: multipart(image, 'a\u0000.png', 'image/png'), type: ok },
      },
      {
        label: 'multipart-two-files',
        value: {
          body: Buffer.concat([
            multipart(image, 'a.png', 'image/png').subarray(0, -4),
            Buffer.from('\r\n'),
            multipart(image, 'b.png', 'image/png'),
          ]),
          type: ok,
        },
      },
      {
        label: 'multipart-header-garbage',
        value: {
          body: Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name=\r\n\r\nx\r\n--${BOUNDARY}--\r\n`),
          type: ok,
        },
      },
    ),
  );
}

/**
 * The requests for one operation: well-formed from the document's schemas (about 40 %), or with
 * one or two hostile mutations: a parameter, the path, the query string, a body field, the whole
 * body, its content type, the headers, the sign-in.
 */
export function planArbitrary(op: Operation, ctx: FuzzContext): fc.Arbitrary<Plan> {
  const actx: ArbitraryContext = { resolve: ctx.schemas.resolve, known: ctx.known };
  const query = op.params.filter((p) => p.in === 'query');
  const pathParams = op.params.filter((p) => p.in === 'path');

  // Operations with many filters get few at a time: each is valid alone, but a request with all
  // of them at once only says "nothing matches".
  const absentWeight = query.length > 8 ? 8 : 2;
  const paramsArb = fc.record(
    Object.fromEntries(
      op.params
        .filter((p) => (p.in === 'query' || p.in === 'path') && (p.required || p.name !== 'cursor'))
        .map((p) => {
          const a = paramArbitrary(op, p, ctx, actx);
          const optional = fc.oneof(
            { arbitrary: fc.constant(undefined), weight: absentWeight },
            { arbitrary: a, weight: 1 },
          );
          return [p.name, p.required ? a : optional];
        }),
    ) as Record<string, fc.Arbitrary<string[] | undefined>>,
  );
  const jsonBody = op.body?.contentType === 'application/json';
  const bodyArb: fc.Arbitrary<unknown> = jsonBody ? arbitraryOf(op.body!.schema, actx) : fc.constant(undefined);

  const auth: fc.Arbitrary<AuthMode> =
    op.auth === 'none'
      ? fc.constantFrom<AuthMode>('anonymous', 'anonymous', 'signed-in')
      : op.auth === 'optional'
        ? fc.constantFrom<AuthMode>('signed-in', 'signed-in', 'signed-in', 'anonymous', 'junk')
        : fc.oneof(
            { arbitrary: fc.constant<AuthMode>('signed-in'), weight: 7 },
            { arbitrary: fc.constantFrom<AuthMode>('anonymous', 'junk'), weight: 3 },
          );

  type Mutation =
    | { kind: 'param'; name: string; value: Labelled<string> }
    | { kind: 'param-empty'; name: string }
    | { kind: 'param-repeat'; name: string; times: number }
    | { kind: 'path'; name: string; value: Labelled<string> }
    | { kind: 'query'; value: Labelled<string> }
    | { kind: 'url-over-16kb' }
    | { kind: 'inject'; name: string; what: Labelled<string>; at: number }
    | { kind: 'field'; name: string; value: Labelled<unknown> }
    | { kind: 'field-raw'; name: string; value: Labelled<string> }
    | { kind: 'drop-field'; name: string }
    | { kind: 'body'; value: Labelled<Buffer> }
    | { kind: 'content-type'; value: Labelled<string | null> }
    | { kind: 'multipart'; value: Labelled<{ body: Buffer; type: string }> }
    | { kind: 'headers'; value: Labelled<Record<string, string>> }
    | { kind: 'auth'; value: Labelled<string> };

  const bodySchema = op.body ? (op.body.schema.$ref ? ctx.schemas.resolve(op.body.schema.$ref) : op.body.schema) : {};
  const fieldNames = Object.keys(bodySchema.properties ?? {});
  // Mostly the documented names: that is where a value reaches the handler and the database.
  const anyField = fc.oneof(...(fieldNames.length ? [{ arbitrary: fc.constantFrom(...fieldNames), weight: 6 }] : []), {
    arbitrary: fc.constantFrom('unknown_field', '__proto__', ''),
    weight: 1,
  });
  const paramNames = query.map((p) => p.name);
  const anyParam = fc.oneof(...(paramNames.length ? [{ arbitrary: fc.constantFrom(...paramNames), weight: 6 }] : []), {
    arbitrary: fc.constantFrom('unknown', 'lang', 'limit', 'cursor'),
    weight: 1,
  });

  const mutations: Array<{ arbitrary: fc.Arbitrary<Mutation>; weight: number }> = [
    {
      arbitrary: fc.record({ kind: fc.constant('param' as const), name: anyParam, value: hostileString }),
      weight: paramNames.length ? 6 : 1,
    },
    {
      arbitrary: fc.record({ kind: fc.constant('param-empty' as const), name: anyParam }),
      weight: paramNames.length ? 2 : 0,
    },
    {
      arbitrary: fc.record({
        kind: fc.constant('param-repeat' as const),
        name: anyParam,
        times: fc.integer({ min: 2, max: 300 }),
      }),
      weight: paramNames.length ? 1 : 0,
    },
    { arbitrary: fc.record({ kind: fc.constant('query' as const), value: brokenQuery }), weight: 1 },
    { arbitrary: fc.constant({ kind: 'url-over-16kb' as const }), weight: 0.05 },
    { arbitrary: fc.record({ kind: fc.constant('headers' as const), value: hostileHeaders }), weight: 1 },
    { arbitrary: fc.record({ kind: fc.constant('auth' as const), value: junkAuthorization }), weight: 1 },
    {
      arbitrary: fc.record({ kind: fc.constant('content-type' as const), value: wrongContentType }),
      weight: op.body ? 2 : 0.5,
    },
    { arbitrary: fc.record({ kind: fc.constant('body' as const), value: garbageBody }), weight: op.body ? 3 : 0.5 },
  ];
  if (pathParams.length) {
    mutations.push({
      arbitrary: fc.record({
        kind: fc.constant('path' as const),
        name: fc.constantFrom(...pathParams.map((p) => p.name)),
        value: fc.oneof(
          hostilePathSegment,
          hostileString.map((s) => ({ label: s.label, value: encodeLoose(s.value) })),
        ),
      }),
      weight: 5,
    });
  }
  // NUL and broken UTF-16 put inside an otherwise valid value, which is how they get past the
  // validators to the database (a name, an address, a device id, a search text).
  const injected = fc.constantFrom(
    labelled('nul', '\u0000'),
    labelled('lone-surrogate', '\uD800'),
    labelled('lone-surrogate', '\uDFFF'),
    labelled('noncharacter', '\uFFFF'),
  );
  if (paramNames.length || fieldNames.length) {
    mutations.push({
      arbitrary: fc.record({
        kind: fc.constant('inject' as const),
        name: fc.constantFrom(...fieldNames.map((n) => `body:${n}`), ...paramNames.map((n) => `query:${n}`)),
        what: injected,
        at: fc.nat(),
      }),
      weight: 6,
    });
  }
  if (jsonBody) {
    mutations.push(
      {
        arbitrary: fc.record({ kind: fc.constant('field' as const), name: anyField, value: hostileJsonValue }),
        weight: 8,
      },
      {
        arbitrary: fc.record({ kind: fc.constant('field-raw' as const), name: anyField, value: rawJsonToken }),
        weight: 3,
      },
      { arbitrary: fc.record({ kind: fc.constant('drop-field' as const), name: anyField }), weight: 1 },
    );
  }
  if (op.body?.contentType === 'multipart/form-data') {
    mutations.push({
      arbitrary: fc.record({ kind: fc.constant('multipart' as const), value: brokenMultipart(ctx.image) }),
      weight: 8,
    });
  }
  const mutation = fc.oneof(
    ...mutations
      .filter((m) => m.weight > 0)
      .map((m) => ({ arbitrary: m.arbitrary, weight: Math.round(m.weight * 100) })),
  );
  const mutationList = fc.oneof(
    { arbitrary: fc.constant([] as Mutation[]), weight: 3 },
    { arbitrary: fc.array(mutation, { minLength: 1, maxLength: 1 }), weight: 6 },
    { arbitrary: fc.array(mutation, { minLength: 2, maxLength: 2 }), weight: 1 },
  );

  return fc
    .record({ params: paramsArb, body: bodyArb, auth, mutations: mutationList })
    .map(({ params, body, auth, mutations }) => {
      const plan: Plan = { op: op.key, auth, path: {}, query: '', headers: {}, hostile: [] };
      const invalid: string[] = [];
      // By parameter: a later mutation of the same parameter decides.
      const invalidParams = new Map<string, string>();
      const values = new Map<string, string[]>();
      for (const [k, v] of Object.entries(params)) if (v !== undefined) values.set(k, v);
      let extraQuery = '';
      let bodyValue = body;
      const raw = new Map<string, string>();
      let bodyOverride: Buffer | undefined;
      let contentType: string | null | undefined;

      for (const m of mutations) {
        switch (m.kind) {
          case 'param': {
            values.set(m.name, [encodeLoose(m.value.value)]);
            plan.hostile.push(`query ${m.name}: ${m.value.label}`);
            const p = query.find((q) => q.name === m.name);
            if (p && !paramValueValid(ctx.schemas, p.schema, [m.value.value]))
              invalidParams.set(m.name, `${m.name}=${JSON.stringify(m.value.value).slice(0, 40)}`);
            else invalidParams.delete(m.name);
            break;
          }
          case 'param-empty': {
            values.set(m.name, ['']);
            plan.hostile.push(`query ${m.name}: empty`);
            const p = query.find((q) => q.name === m.name);
            if (p?.required) invalidParams.set(m.name, `${m.name}= (empty, required)`);
            else invalidParams.delete(m.name);
            break;
          }
          case 'param-repeat': {
            const v = values.get(m.name) ?? ['1'];
            values.set(
              m.name,
              Array.from({ length: m.times }, () => v[0]!),
            );
            plan.hostile.push(`query ${m.name}: repeated`);
            break;
          }
          case 'path':
            plan.path[m.name] = m.value.value;
            plan.hostile.push(`path ${m.name}: ${m.value.label}`);
            break;
          case 'query':
            extraQuery += `&${m.value.value.replace(/^\?/, '')}`;
            plan.hostile.push(`query: ${m.value.label}`);
            break;
          case 'url-over-16kb':
            extraQuery += `&pad=${'p'.repeat(17_000)}`;
            plan.hostile.push('url over 16 KB');
            break;
          case 'inject': {
            const [where, name] = m.name.split(/:(.*)/s) as [string, string];
            const put = (v: string) => {
              const at = m.at % (v.length + 1);
              return v.slice(0, at) + m.what.value + v.slice(at);
            };
            if (where === 'query') {
              const p = query.find((q) => q.name === name)!;
              const current = values.get(name);
              const plain = current?.length ? decodeLoose(current[0]!) : 'x';
              values.set(name, [encodeLoose(put(plain))]);
              if (!paramValueValid(ctx.schemas, p.schema, [put(plain)]))
                invalidParams.set(name, `${name} with ${m.what.label}`);
              else invalidParams.delete(name);
            } else {
              const obj =
                bodyValue && typeof bodyValue === 'object' && !Array.isArray(bodyValue) ? { ...bodyValue } : {};
              const current = (obj as Record<string, unknown>)[name];
              (obj as Record<string, unknown>)[name] = put(typeof current === 'string' ? current : 'Anna');
              bodyValue = obj;
            }
            plan.hostile.push(`${where} ${name}: ${m.what.label} inside`);
            break;
          }
          case 'field': {
            const obj = bodyValue && typeof bodyValue === 'object' && !Array.isArray(bodyValue) ? { ...bodyValue } : {};
            setOwn(obj, m.name, m.value.value);
            bodyValue = obj;
            plan.hostile.push(`body ${m.name || '""'}: ${m.value.label}`);
            break;
          }
          case 'field-raw': {
            const obj = bodyValue && typeof bodyValue === 'object' && !Array.isArray(bodyValue) ? { ...bodyValue } : {};
            const marker = `__raw_${raw.size}__`;
            raw.set(marker, m.value.value);
            setOwn(obj, m.name, marker);
            bodyValue = obj;
            plan.hostile.push(`body ${m.name || '""'}: ${m.value.label}`);
            break;
          }
          case 'drop-field': {
            if (bodyValue && typeof bodyValue === 'object' && !Array.isArray(bodyValue)) {
              const obj = { ...(bodyValue as Record<string, unknown>) };
              delete obj[m.name];
              bodyValue = obj;
            }
            plan.hostile.push(`body ${m.name || '""'}: dropped`);
            break;
          }
          case 'body':
            bodyOverride = m.value.value;
            plan.hostile.push(`body: ${m.value.label}`);
            break;
          case 'content-type':
            contentType = m.value.value;
            plan.hostile.push(`content-type: ${m.value.label}`);
            break;
          case 'multipart':
            bodyOverride = m.value.value.body;
            contentType = m.value.value.type;
            plan.hostile.push(`body: ${m.value.label}`);
            break;
          case 'headers':
            Object.assign(plan.headers, m.value.value);
            plan.hostile.push(`header ${m.value.label}`);
            break;
          case 'auth':
            plan.auth = 'junk';
            plan.junkAuthorization = m.value.value;
            plan.hostile.push(`authorization: ${m.value.label}`);
            break;
        }
      }

      for (const p of pathParams) {
        if (plan.path[p.name] === undefined) plan.path[p.name] = (values.get(p.name) ?? ['x'])[0]!;
      }
      const pairs: string[] = [];
      for (const p of query) for (const v of values.get(p.name) ?? []) pairs.push(`${encodeLoose(p.name)}=${v}`);
      for (const [k, vs] of values) {
        if (query.some((q) => q.name === k) || pathParams.some((q) => q.name === k)) continue;
        for (const v of vs) pairs.push(`${encodeLoose(k)}=${v}`);
      }
      plan.query = [pairs.join('&'), extraQuery.replace(/^&/, '')].filter(Boolean).join('&');

      if (op.body?.contentType === 'multipart/form-data' && bodyOverride === undefined) {
        plan.body = multipart(ctx.image, 'avatar.png', 'image/png');
        plan.note = 'png upload';
        contentType ??= `multipart/form-data; boundary=${BOUNDARY}`;
      } else if (bodyOverride !== undefined) {
        plan.body = bodyOverride;
        contentType = contentType === undefined ? 'application/json' : contentType;
      } else if (jsonBody) {
        plan.body = bodyText(bodyValue, raw);
        contentType = contentType === undefined ? 'application/json' : contentType;
        if (raw.size === 0 && !ctx.schemas.validator(bodySchema)(bodyValue)) {
          invalid.push(`body: ${ctx.schemas.describe(ctx.schemas.validator(bodySchema))}`);
        }
      } else if (contentType !== undefined) {
        // A body the operation does not take, with a content type of its own.
        plan.body = Buffer.from('{"unexpected":true}');
      }
      if (contentType) plan.headers['content-type'] = contentType;
      invalid.unshift(...invalidParams.values());
      if (op.auth === 'required' && (plan.auth === 'anonymous' || plan.auth === 'junk')) invalid.push('not signed in');
      if (invalid.length) plan.invalid = invalid.join(', ');
      return plan;
    });
}

/** The request a plan stands for, with the token of the session in use. */
export function materialize(op: Operation, plan: Plan, tokens: Tokens): RawRequest {
  let path = op.path.replace(/\{([^}]+)\}/g, (_, name: string) => plan.path[name] ?? '');
  if (plan.query) path += `?${plan.query}`;
  const headers: Record<string, string> = { accept: 'application/json', ...plan.headers };
  if (plan.auth === 'signed-in') headers.authorization = `Bearer ${tokens.access}`;
  if (plan.auth === 'junk') headers.authorization = plan.junkAuthorization ?? 'Bearer junk';
  return { method: op.method, path, headers, ...(plan.body !== undefined ? { body: plan.body } : {}) };
}

/** A broken rule, named so that failures group by it. */
export interface Violation {
  rule:
    '5xx' | 'no envelope' | 'no X-Request-Id' | 'body not as documented' | '2xx for an invalid request' | 'no answer';
  detail: string;
}

/** Checks one answer against the rules of issue 14 point 8; returns what it broke. */
export function checkAnswer(schemas: DocumentSchemas, op: Operation, plan: Plan, res: RawResponse): Violation[] {
  const out: Violation[] = [];
  const type = String(res.headers['content-type'] ?? '');
  const text = res.body.toString('utf8');
  if (res.status >= 500) out.push({ rule: '5xx', detail: `${res.status} ${snippet(text)}` });
  const rid = res.headers['x-request-id'];
  if (!rid) out.push({ rule: 'no X-Request-Id', detail: `${res.status}` });
  if (res.status >= 400) {
    let parsed: any;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    const e = parsed?.error;
    const complete =
      parsed &&
      typeof e === 'object' &&
      e !== null &&
      typeof e.code === 'string' &&
      typeof e.message === 'string' &&
      typeof e.details === 'object' &&
      e.details !== null &&
      !Array.isArray(e.details) &&
      typeof e.request_id === 'string';
    if (!complete) out.push({ rule: 'no envelope', detail: `${res.status} ${type} ${snippet(text)}` });
    else if (rid && e.request_id !== rid)
      out.push({ rule: 'no envelope', detail: `request_id ${e.request_id} ≠ header ${rid}` });
  }
  if (res.status >= 200 && res.status < 300) {
    if (plan.invalid) out.push({ rule: '2xx for an invalid request', detail: `${res.status}: ${plan.invalid}` });
    const schema = schemas.responseSchema(op, res.status);
    if (schema && res.status !== 204) {
      if (!/^application\/json\b/.test(type) && !op.path.startsWith('/v1/map/')) {
        out.push({ rule: 'body not as documented', detail: `${res.status} content-type ${type || 'none'}` });
      } else if (/^application\/json\b/.test(type)) {
        let body: unknown;
        try {
          body = JSON.parse(text);
        } catch {
          out.push({ rule: 'body not as documented', detail: `${res.status} not JSON: ${snippet(text)}` });
          return out;
        }
        const v = schemas.validator(schema);
        if (!v(body)) out.push({ rule: 'body not as documented', detail: `${res.status} ${schemas.describe(v)}` });
      }
    }
  }
  return out;
}

function snippet(s: string): string {
  const t = s.replace(/\s+/g, ' ').trim();
  return t.length > 160 ? `${t.slice(0, 160)}…` : t;
}

/** A request for the failure report: method, path and query (shortened), headers, body. */
export function describeRequest(req: RawRequest): string {
  const short = (s: string, n: number) => (s.length > n ? `${s.slice(0, n)}…(${s.length} chars)` : s);
  const headers = Object.entries(req.headers)
    .filter(([k, v]) => !(k === 'accept' && v === 'application/json'))
    .map(([k, v]) => `${k}: ${k === 'authorization' && v.length > 30 ? `${v.slice(0, 20)}…` : short(v, 80)}`)
    .join(' | ');
  const body = req.body === undefined ? '' : ` body ${short(JSON.stringify(req.body.toString('latin1')), 140)}`;
  return `${req.method} ${short(req.path, 140)}${headers ? ` [${headers}]` : ''}${body}`;
}

/** A 32-bit seed for request `i` of run `seed`: each request regenerates alone from the pair. */
export function requestSeed(seed: number, i: number): number {
  let h = (seed ^ 0x9e3779b9) >>> 0;
  h = Math.imul(h ^ i, 0x85ebca6b) >>> 0;
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35) >>> 0;
  return (h ^ (h >>> 16)) | 0;
}

/** Plan `i` of a run: the operation in turn (every operation gets its share), then its request. */
export function planAt(
  ops: Operation[],
  arbs: Map<string, fc.Arbitrary<Plan>>,
  seed: number,
  i: number,
): { op: Operation; plan: Plan } {
  const op = ops[i % ops.length]!;
  const [plan] = fc.sample(arbs.get(op.key)!, { seed: requestSeed(seed, i), numRuns: 1 });
  return { op, plan: plan! };
}

/**
 * An own, enumerable property even for `__proto__`: plain assignment of that name sets the
 * object's prototype instead, so the key would never reach the wire while the schema check (which
 * walks inherited keys too) judged the request by it.
 */
function setOwn(obj: object, name: string, value: unknown): void {
  Object.defineProperty(obj, name, { value, enumerable: true, writable: true, configurable: true });
}
