import type { z } from 'zod';
import { eq, sql } from 'drizzle-orm';
import { schema, type Db } from '@guest/db';
import { SEARCH_FILTER_SECTIONS, type SearchFilterSections } from '@guest/db/schema';
import { errors } from '@guest/http-kit';
import { ensureProfile } from './store.ts';
import type { SearchFiltersRequest, SearchFiltersResponse } from './schemas.ts';

const { profiles } = schema;

type Sections = z.infer<typeof SearchFiltersResponse>;

function view(saved: SearchFilterSections | undefined): Sections {
  return Object.fromEntries(SEARCH_FILTER_SECTIONS.map((s) => [s, saved?.[s] ?? {}])) as Sections;
}

export async function readSearchFilters(db: Db, accountId: string): Promise<Sections> {
  const [row] = await db.select({ f: profiles.searchFilters }).from(profiles).where(eq(profiles.accountId, accountId));
  return view(row?.f);
}

export async function writeSearchFilters(
  db: Db,
  accountId: string,
  body: z.infer<typeof SearchFiltersRequest>,
  maxSectionBytes: number,
): Promise<Sections> {
  const replace: Record<string, unknown> = {};
  const clear: string[] = [];
  for (const s of SEARCH_FILTER_SECTIONS) {
    const v = body[s];
    if (v === undefined) continue;
    if (v === null) {
      clear.push(s);
      continue;
    }
    const size = Buffer.byteLength(JSON.stringify(v));
    if (size > maxSectionBytes) {
      throw errors.validation(s, `The ${s} section is larger than ${maxSectionBytes} bytes.`, {
        reason: 'too_large',
        max_bytes: maxSectionBytes,
      });
    }
    replace[s] = v;
  }
  await ensureProfile(db, accountId);
  // One statement: drop the cleared sections, then merge the sent ones over what is saved.
  const [row] = await db
    .update(profiles)
    .set({
      searchFilters: sql`(${profiles.searchFilters} - array(select jsonb_array_elements_text(${JSON.stringify(clear)}::jsonb))) || ${JSON.stringify(replace)}::jsonb`,
      updatedAt: sql`now()`,
    })
    .where(eq(profiles.accountId, accountId))
    .returning({ f: profiles.searchFilters });
  return view(row?.f);
}
