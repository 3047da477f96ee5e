import { z } from 'zod';

/** `limit` with the bounds the caller gives (spec 1–100 for transactions; DESIGN G8c for search). */
export function limitParam(def: number, max: number) {
  return z.coerce
    .number()
    .int()
    .min(1)
    .max(max)
    .default(def)
    .meta({ description: `Page size, 1 to ${max}; default ${def}.` });
}

export const cursorParam = z
  .string()
  .min(1)
  .max(4096)
  .optional()
  .meta({ description: 'Opaque cursor from `next_cursor` of the previous page.' });

/**
 * `lang`: the language of the answer's texts, else `Accept-Language`, else English (the request's
 * `req.lang`). Any tag is accepted; one that names no supported language falls back.
 */
export const langParam = z
  .string()
  .max(35)
  .optional()
  .meta({ description: 'Response language (else `Accept-Language`).' });

/** Query booleans: `true`/`false`/`1`/`0` only, so a typo is an error and not silently false. */
export const queryBool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

export const MessageResponse = z
  .object({ ok: z.boolean().default(true), message: z.string().nullable() })
  .meta({ id: 'MessageResponse' });

export function pageOf<T extends z.ZodType>(item: T) {
  return z.object({ items: z.array(item), next_cursor: z.string().nullable(), has_more: z.boolean() });
}
