import type { FastifyInstance } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { AppError } from './errors/app-error.ts';

/**
 * Hostile input, refused in one place before any schema or handler sees it (issue 14 point 4):
 *
 * - Text that Postgres (or any client) cannot store: a NUL character, or a lone UTF-16 surrogate
 *   (`"\ud800"` in JSON). In a JSON body, a query string or a path parameter, anywhere in it,
 *   keys included: 400 `validation_error`, `details.field` names where (`display_name`,
 *   `stay.tags.2`, `q`, `tx_id`), `details.reason` = `invalid_text`.
 * - JSON bodies nested deeper than `JSON_MAX_DEPTH` or with an array of more than
 *   `JSON_MAX_ARRAY_ITEMS` items: 400 `validation_error`, `reason` = `too_deep` / `too_many_items`
 *   (this bounds free-form JSON that is stored as sent, such as saved search filters).
 *
 * Why 400 for a body and not 422 `schema_invalid` (DESIGN.md G7a): these are checks of the
 * request's text and size, made before and whatever its schema, like malformed JSON (also 400
 * `validation_error`); 422 stays the answer of a body that is well-formed text but does not match
 * the operation's schema.
 */
export interface InputLimits {
  maxDepth: number;
  maxItems: number;
}

export interface InputProblem {
  field: string;
  reason: 'invalid_text' | 'too_deep' | 'too_many_items';
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** True for text that can be stored and sent on: no NUL, no lone surrogate. */
export function isCleanText(s: string): boolean {
  return !s.includes('\u0000') && !LONE_SURROGATE.test(s);
}

interface Node {
  value: unknown;
  key: string | null;
  parent: Node | null;
  depth: number;
}

function fieldOf(node: Node | null, root: string): string {
  const parts: string[] = [];
  for (let n = node; n && n.key !== null; n = n.parent) parts.push(n.key);
  return parts.length ? parts.reverse().join('.') : root;
}

/**
 * Walks a parsed value without recursion (a body can be nested thousands deep) and returns the
 * first problem; `limits` null checks the text only (query strings and path parameters).
 */
export function screenValue(value: unknown, root: string, limits: InputLimits | null): InputProblem | null {
  const stack: Node[] = [{ value, key: null, parent: null, depth: 0 }];
  while (stack.length) {
    const node = stack.pop()!;
    const v = node.value;
    if (typeof v === 'string') {
      if (!isCleanText(v)) return { field: fieldOf(node, root), reason: 'invalid_text' };
      continue;
    }
    if (v === null || typeof v !== 'object') continue;
    const depth = node.depth + 1;
    if (limits && depth > limits.maxDepth) return { field: fieldOf(node, root), reason: 'too_deep' };
    if (Array.isArray(v)) {
      if (limits && v.length > limits.maxItems) return { field: fieldOf(node, root), reason: 'too_many_items' };
      for (let i = v.length - 1; i >= 0; i--) stack.push({ value: v[i], key: String(i), parent: node, depth });
      continue;
    }
    const keys = Object.keys(v);
    for (let i = keys.length - 1; i >= 0; i--) {
      const k = keys[i]!;
      if (!isCleanText(k)) return { field: fieldOf(node, root), reason: 'invalid_text' };
      stack.push({ value: (v as Record<string, unknown>)[k], key: k, parent: node, depth });
    }
  }
  return null;
}

const MESSAGES: Record<InputProblem['reason'], string> = {
  invalid_text: 'contains a NUL character or invalid Unicode (a lone surrogate)',
  too_deep: 'is nested too deeply',
  too_many_items: 'has too many items',
};

function refuse(where: 'body' | 'query' | 'path', p: InputProblem, limits: InputLimits): AppError {
  const bound =
    p.reason === 'too_deep'
      ? ` (at most ${limits.maxDepth} levels)`
      : p.reason === 'too_many_items'
        ? ` (at most ${limits.maxItems})`
        : '';
  const what =
    p.field === where ? `The ${where}` : `The ${where === 'body' ? 'field' : `${where} parameter`} ${p.field}`;
  return new AppError('validation_error', `${what} ${MESSAGES[p.reason]}${bound}.`, {
    field: p.field,
    fields: [p.field],
    reason: p.reason,
  });
}

/** The screen as a hook of every route (before validation, so before any handler or query). */
export function registerInputScreen(app: FastifyInstance, limits: InputLimits): void {
  app.addHook('preValidation', async (req) => {
    // A wildcard (`/v1/map/*`) is the rest of the path, not a field: the route that declares it
    // matches it against its own allowed shapes (and answers 404 to anything else).
    const { '*': _rest, ...named } = (req.params ?? {}) as Record<string, unknown>;
    const params = screenValue(named, 'path', null);
    if (params) throw refuse('path', params, limits);
    const query = screenValue(req.query, 'query', null);
    if (query) throw refuse('query', query, limits);
    if (req.body !== undefined && !Buffer.isBuffer(req.body)) {
      const body = screenValue(req.body, 'body', limits);
      if (body) throw refuse('body', body, limits);
    }
  });
}

// ---- Numbers in query strings and paths: decimal digits only --------------------------------

type NumberKind = 'int' | 'decimal';
const PATTERNS: Record<NumberKind, RegExp> = {
  int: /^-?[0-9]{1,16}$/,
  decimal: /^-?[0-9]{1,16}(\.[0-9]{1,16})?$/,
};

/** Peels optional/default/nullable/catch/readonly wrappers and the input side of pipes. */
function unwrap(schema: any): any {
  let s = schema;
  for (let i = 0; i < 20 && s?._zod; i++) {
    const def = s._zod.def;
    if (def.innerType) s = def.innerType;
    else if (def.type === 'pipe' && def.in) s = def.in;
    else break;
  }
  return s;
}

/** Fields of an object schema that are coerced numbers (`z.coerce.number()`), and of which kind. */
function coercedNumberFields(schema: unknown): Map<string, NumberKind> {
  const out = new Map<string, NumberKind>();
  const obj = unwrap(schema);
  const shape = obj?._zod?.def?.type === 'object' ? (obj._zod.def.shape as Record<string, unknown>) : null;
  if (!shape) return out;
  for (const [key, field] of Object.entries(shape)) {
    const inner = unwrap(field);
    if (inner?._zod?.def?.type === 'number' && inner._zod.def.coerce) out.set(key, inner.isInt ? 'int' : 'decimal');
  }
  return out;
}

/**
 * The zod validator of every route, stricter where zod's coercion is lenient: `Number()` reads
 * `0x10`, `1e1`, ` 5` and `` (empty) as 16, 10, 5 and 0. A query or path parameter declared as a
 * coerced number must be written in decimal digits (a sign, and for non-integers one decimal
 * point, allowed); anything else, empty included, is 400 `validation_error` naming it. One place
 * for every route: the shared helpers (`limitParam`) and each route's own `z.coerce.number()`.
 */
export function strictValidatorCompiler(route: { schema: unknown; httpPart?: string; method?: string; url?: string }) {
  const validate = validatorCompiler(route as never) as (data: unknown) => unknown;
  const part = route.httpPart;
  if (part !== 'querystring' && part !== 'params') return validate;
  const numbers = coercedNumberFields(route.schema);
  if (!numbers.size) return validate;
  const context = part === 'querystring' ? 'query' : 'path';
  return (data: unknown) => {
    if (data && typeof data === 'object') {
      for (const [key, kind] of numbers) {
        const v = (data as Record<string, unknown>)[key];
        if (typeof v !== 'string' || PATTERNS[kind].test(v)) continue;
        const reason = v.trim() === '' ? 'empty' : 'not_decimal';
        const rule = kind === 'int' ? 'a whole number in decimal digits' : 'a number in decimal digits';
        return {
          error: new AppError(
            'validation_error',
            `Invalid ${context} parameter: ${key}: ${reason === 'empty' ? 'is empty; leave it out or give ' : 'must be '}${rule}.`,
            { field: key, fields: [key], reason },
          ),
        };
      }
    }
    return validate(data);
  };
}
