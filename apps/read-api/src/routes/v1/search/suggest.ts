import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponses } from '@guest/http-kit';
import { LISTING_KINDS, PLACE_LEVELS, pickText, type ListingDocument, type PlaceDocument } from '@guest/catalog';
import { nameIn } from '../../../search/cards.ts';
import type { SearchDeps } from '../../../search/context.ts';
import {
  buildListingSuggestRequest,
  buildPlaceSuggestRequest,
  buildPlacesWithKindRequest,
  type LISTING_SUGGEST_SOURCE,
  type PLACE_SUGGEST_SOURCE,
} from '../../../search/suggest.ts';
import { SuggestResponse } from '../../../search/schemas.ts';

/** With a kind, this many place candidates are checked for listings of that kind. */
const PLACE_CANDIDATES_WITH_KIND = 30;

/** GET /v1/search/suggest (spec 4.7): places by translated names and listings, as you type. */
export default async function suggestRoute(app: FastifyInstance, opts: { deps: SearchDeps }): Promise<void> {
  const { deps } = opts;
  const limit = app.runtime.config.SEARCH_SUGGEST_LIMIT;
  const Query = z.object({
    q: z
      .string()
      .transform((v) => v.trim())
      .pipe(z.string().min(1).max(100))
      .meta({ description: 'What the guest has typed: names in any of the four languages, prefixes, small typos.' }),
    kind: z.enum(LISTING_KINDS).optional().meta({
      description: 'Only listings of this kind, and only places that hold listings of this kind.',
    }),
  });

  app.withTypeProvider<ZodTypeProvider>().get(
    '/v1/search/suggest',
    {
      schema: {
        tags: ['search'],
        summary: 'Suggestions of places and listings as the guest types',
        querystring: Query,
        response: { 200: SuggestResponse, ...errorResponses(400, 429, 500) },
      },
    },
    async (req) => {
      const { q, kind } = req.query;
      const [placesRes, listingsRes] = await Promise.all([
        deps.engine.search<Pick<PlaceDocument, (typeof PLACE_SUGGEST_SOURCE)[number]>>(
          deps.placesIndex,
          buildPlaceSuggestRequest(q, kind ? PLACE_CANDIDATES_WITH_KIND : limit),
        ),
        deps.engine.search<Pick<ListingDocument, (typeof LISTING_SUGGEST_SOURCE)[number]>>(
          deps.listingsIndex,
          buildListingSuggestRequest(q, kind, limit),
        ),
      ]);
      let places = placesRes.hits.map((h) => h._source);
      if (kind && places.length) {
        const res = await deps.engine.search(
          deps.listingsIndex,
          buildPlacesWithKindRequest(
            places.map((p) => p.id),
            kind,
          ),
        );
        const holding = new Set<number>(
          (res.aggregations?.places?.buckets ?? []).map((b: { key: number }) => Number(b.key)),
        );
        places = places.filter((p) => holding.has(p.id));
      }
      return {
        places: places.slice(0, limit).map((p) => ({
          id: p.id,
          slug: p.slug,
          name: nameIn(p.name, req.lang),
          name_full: nameIn(p.name_full, req.lang) || null,
          level: p.level as (typeof PLACE_LEVELS)[number],
        })),
        listings: listingsRes.hits.map(({ _source: l }) => ({
          id: l.id,
          kind: l.kind,
          title: pickText(l.title, req.lang, l.original_lang)?.text ?? '',
          place_name: nameIn(l.place.name, req.lang),
        })),
      };
    },
  );
}
