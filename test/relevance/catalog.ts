import { writeFile } from 'node:fs/promises';
import { addDays } from '@guest/catalog';
import { generateDemoCatalog } from '@guest/indexer';
import { CATALOG_FILE } from './evaluate.ts';
import { catalogFacts, type Catalog } from './facts.ts';

/**
 * The suite's catalog: the demo catalog (its generator, seed and places), 700 listings and 120
 * events, one photo each (photos play no part in search). Generated for the day the suite runs,
 * so that events stay inside the schedule horizon; the facts do not depend on the day (only
 * dates move). `npx tsx test/relevance/catalog.ts --write` writes the readable copy of
 * catalog.ndjson, at the fixed day the judgments were written against.
 */
export const SUITE_CATALOG = { listings: 700, events: 120, seed: 20261121 } as const;
export const CATALOG_DAY = '2026-11-20';

type Rec = Record<string, unknown>;

export function suiteCatalogLines(today: string): string[] {
  const lines: string[] = [];
  for (const r of generateDemoCatalog({ ...SUITE_CATALOG, today })) {
    const rec = r as Record<string, unknown>;
    if (rec.type === 'listing' && Array.isArray(rec.photos)) rec.photos = rec.photos.slice(0, 1);
    lines.push(JSON.stringify(rec));
  }
  return lines;
}

/** Whether an event has an occurrence the upcoming list can show: tomorrow to the horizon's end. */
function occursWithin(e: Record<string, unknown>, from: string, to: string): boolean {
  for (const s of (e.schedule ?? []) as Array<Record<string, unknown>>) {
    const weekly = s.weekly as { from: string; until: string; days: string[] } | undefined;
    if (
      weekly
        ? weekly.from <= to && weekly.until >= from && weekly.days.length > 0
        : (s.date as string) >= from && (s.date as string) <= to
    ) {
      return true;
    }
  }
  return false;
}

/** The facts the judgments are graded on, for the catalog of `today`. */
export function suiteFacts(lines: string[], today: string): Catalog {
  const records = lines.map((l) => JSON.parse(l) as Rec);
  const facts = catalogFacts(records as Parameters<typeof catalogFacts>[0]);
  const from = addDays(today, 1);
  const to = addDays(today, 170);
  const shown = new Set(
    records.filter((r) => r.type === 'event' && occursWithin(r, from, to)).map((r) => r.external_id as string),
  );
  return { listings: facts.listings, events: facts.events.filter((e) => shown.has(e.externalId)) };
}

if (process.argv.includes('--write')) {
  await writeFile(CATALOG_FILE, `${suiteCatalogLines(CATALOG_DAY).join('\n')}\n`);
  console.log(`wrote ${CATALOG_FILE}`);
}
