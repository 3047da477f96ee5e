import { inArray } from 'drizzle-orm';
import { schema } from '@guest/db';
import type { EventRecord } from '@guest/catalog';
import { excludedSet, NEXT_VERSION, type WriteContext } from './shared.ts';
import { changedByExternalId } from './external-ids.ts';

/** Events with their schedules (a changed event's slots are replaced wholesale). */
export async function writeEvents(
  ctx: WriteContext,
  batch: EventRecord[],
  refs: { placeIds: Map<string, number>; categoryIds: Map<string, number> },
) {
  const { dbTx } = ctx;
  const changed = await changedByExternalId(ctx, schema.events, 'event', batch);
  if (!changed.length) return;
  const written = await dbTx
    .insert(schema.events)
    .values(
      changed.map(({ r, hash }) => ({
        externalId: r.external_id,
        slug: r.slug,
        status: r.status,
        title: r.title,
        description: r.description,
        originalLang: r.original_lang,
        categoryId: refs.categoryIds.get(r.category)!,
        placeId: refs.placeIds.get(r.place)!,
        venueName: r.venue.name,
        venueLat: r.venue.lat,
        venueLon: r.venue.lon,
        timezone: r.timezone,
        entry: r.entry,
        priceMinor: r.price.amount_minor,
        currency: r.price.currency,
        audience: r.audience,
        crowd: r.crowd,
        eventLang: r.event_lang,
        contentHash: hash,
        version: NEXT_VERSION,
      })),
    )
    .onConflictDoUpdate({ target: schema.events.externalId, set: excludedSet(schema.events, ['id', 'externalId']) })
    .returning({ id: schema.events.id, k: schema.events.externalId, version: schema.events.version });
  const idOf = new Map(written.map((w) => [w.k, w.id]));
  await dbTx.delete(schema.eventSchedules).where(
    inArray(
      schema.eventSchedules.eventId,
      written.map((w) => w.id),
    ),
  );
  const slots = changed.flatMap(({ r }) =>
    r.schedule.map((s, position) =>
      'weekly' in s
        ? {
            eventId: idOf.get(r.external_id)!,
            position,
            kind: 'weekly' as const,
            days: s.weekly.days,
            dateFrom: s.weekly.from,
            dateUntil: s.weekly.until,
            exceptDates: s.except,
            startTime: s.weekly.start,
            endTime: s.weekly.end,
          }
        : {
            eventId: idOf.get(r.external_id)!,
            position,
            kind: 'once' as const,
            date: s.date,
            startTime: s.start,
            endTime: s.end,
          },
    ),
  );
  if (slots.length) await dbTx.insert(schema.eventSchedules).values(slots);
  for (const w of written) ctx.outbox.push({ entity: 'event', entityId: w.id, version: w.version });
}
