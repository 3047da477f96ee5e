import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { cursorParam, limitParam, pageOf, type AppPlugin } from '@guest/http-kit';

let slowInHandler = 0;
/** How many requests to the slow routes are inside their handler now: a test waits for one to be in flight. */
export const slowRequestsInHandler = () => slowInHandler;

/**
 * Routes that exist only in these tests, to drive each shared mechanism over real HTTP
 * before the feature apps that use them are built. They write to a real table.
 */
async function probe(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  await app.runtime.database.pool.query(
    'create table if not exists probe_things (id serial primary key, name text not null, count int not null)',
  );

  r.get('/v1/_probe/boom', async () => {
    throw new Error('secret internal detail at /srv/app.ts:42');
  });

  r.get(
    '/v1/_probe/query',
    { schema: { querystring: z.object({ n: z.coerce.number().int().min(1) }) } },
    async (req) => ({
      n: req.query.n,
    }),
  );

  r.get('/v1/_probe/lang', async (req) => ({ lang: req.lang }));

  const Thing = z.object({ name: z.string().min(1), count: z.number().int() });
  const create = (delayMs: number) => async (req: { body: z.infer<typeof Thing> }, reply: any) => {
    if (delayMs) slowInHandler++;
    try {
      if (delayMs) await new Promise((res) => setTimeout(res, delayMs));
      const { rows } = await app.runtime.database.pool.query(
        'insert into probe_things (name, count) values ($1, $2) returning id, name, count',
        [req.body.name, req.body.count],
      );
      return reply.code(201).send(rows[0]);
    } finally {
      if (delayMs) slowInHandler--;
    }
  };
  r.post('/v1/_probe/things', { schema: { body: Thing }, config: { idempotent: true } }, create(0));
  r.post('/v1/_probe/slow-things', { schema: { body: Thing }, config: { idempotent: true } }, create(700));

  r.get('/v1/_probe/named/:name', async (req) => ({ name: (req.params as { name: string }).name }));

  const items = Array.from({ length: 25 }, (_, i) => ({ id: i + 1 }));
  r.get(
    '/v1/_probe/items',
    {
      schema: {
        querystring: z.object({ cursor: cursorParam, limit: limitParam(10, 100) }),
        response: { 200: pageOf(z.object({ id: z.number() })) },
      },
    },
    async (req) => {
      const after = req.query.cursor ? app.cursors.decode<{ after: number }>('probe-items', req.query.cursor).after : 0;
      const page = items.filter((i) => i.id > after).slice(0, req.query.limit);
      const last = page.at(-1);
      const hasMore = !!last && last.id < items.length;
      return {
        items: page,
        has_more: hasMore,
        next_cursor: hasMore ? app.cursors.encode('probe-items', { after: last!.id }) : null,
      };
    },
  );
}

export const probeApp: AppPlugin = { name: 'probe', plugin: probe };
