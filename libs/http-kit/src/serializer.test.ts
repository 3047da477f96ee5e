import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod';
import { precompiledSerializerCompiler } from './serializer.ts';

const Card = z
  .object({
    id: z.number().int(),
    kind: z.enum(['stay', 'food']),
    title: z.string(),
    point: z.object({ lat: z.number(), lon: z.number() }).nullable(),
    rating_avg: z.number().nullable(),
    photo: z.object({ thumb: z.string(), large: z.string().nullable() }).nullable(),
    bbox: z.tuple([z.number(), z.number(), z.number(), z.number()]),
    tags: z.array(z.string()),
    extra: z.record(z.string(), z.unknown()),
    is_favorite: z.boolean().optional(),
  })
  .meta({ id: 'SerializerTestCard' });
const Page = z.object({ items: z.array(Card), has_more: z.boolean(), next_cursor: z.string().nullable() });

const both = (schema: z.ZodType) => {
  const input = { schema, method: 'GET', url: '/x' };
  return {
    fast: precompiledSerializerCompiler(input),
    zod: zodSerializerCompiler(input as never) as (data: unknown) => string,
  };
};

describe('precompiled response serializer', () => {
  it('writes the very JSON the zod serializer writes: order, nulls, optional and extra keys', () => {
    const { fast, zod } = both(Page);
    const card = {
      title: 'Villa "Kata" \u2028 ☀️',
      id: 7,
      kind: 'stay',
      point: { lon: 98.3, lat: 7.8, alt: 3 },
      rating_avg: null,
      photo: { thumb: 't', large: null },
      bbox: [1, 2, 3, 4.5],
      tags: ['a', 'b'],
      extra: { any: { nested: [1, null] } },
      internal_only: 'never sent',
    };
    const data = {
      items: [card, { ...card, id: 8, is_favorite: true, point: null, photo: null, rating_avg: 4.5 }],
      has_more: false,
      next_cursor: null,
      debug: 'dropped',
    };
    expect(fast(data)).toBe(zod(data));
  });

  it('refuses an answer that lacks a required property, as zod does', () => {
    const { fast, zod } = both(Page);
    const data = { items: [], has_more: false };
    expect(() => zod(data)).toThrow();
    expect(() => fast(data)).toThrow();
  });
});

describe('precompiled response serializer, key order', () => {
  it('keeps the schema order of an optional property that comes before required ones', () => {
    const Mixed = z.object({ a: z.number(), maybe: z.string().optional(), z: z.number() });
    const { fast, zod } = both(Mixed);
    const data = { z: 3, maybe: 'x', a: 1 };
    expect(fast(data)).toBe('{"a":1,"maybe":"x","z":3}');
    expect(fast(data)).toBe(zod(data));
  });
});
