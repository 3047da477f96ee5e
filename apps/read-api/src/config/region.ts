import { sql } from 'drizzle-orm';
import type { Db } from '@guest/db';
import { pickText, type Texts } from '@guest/catalog';
import type { Lang } from '@guest/http-kit';

export interface RegionRow {
  id: number;
  slug: string;
  name: string;
  timezone: string | null;
  currency: string | null;
  center: { lat: number; lon: number } | null;
}

/**
 * The events region at a point: the place of level `region` that contains it.
 *
 * The catalog stores a centre point per place and no area, so containment is approximated: the
 * place (of level region, district or area) whose centre is nearest to the point, within
 * `maxKm`, stands for "the place the point is in", and the answer is that place's region (itself,
 * or its ancestor of level `region`). Null when no such place is near enough.
 */
export async function regionAt(db: Db, lat: number, lon: number, maxKm: number, lang: Lang): Promise<RegionRow | null> {
  const { rows } = await db.execute<{
    id: number;
    slug: string;
    name: Texts;
    timezone: string | null;
    currency: string | null;
    center_lat: number | null;
    center_lon: number | null;
  }>(sql`
    with recursive nearest as (
      select id, parent_id, level
      from places
      where level in ('region', 'district', 'area') and center_lat is not null and center_lon is not null
        and 6371 * 2 * asin(sqrt(
              power(sin(radians(center_lat - ${lat}) / 2), 2)
            + cos(radians(${lat})) * cos(radians(center_lat)) * power(sin(radians(center_lon - ${lon}) / 2), 2)
            )) <= ${maxKm}
      order by power(center_lat - ${lat}, 2) + power((center_lon - ${lon}) * cos(radians(${lat})), 2), id
      limit 1
    ),
    up as (
      select id, parent_id, level, 0 as depth from nearest
      union all
      select p.id, p.parent_id, p.level, up.depth + 1
      from places p join up on p.id = up.parent_id
      where up.level <> 'region' and up.depth < 8
    )
    select p.id, p.slug, p.name, p.timezone, p.currency, p.center_lat, p.center_lon
    from up join places p on p.id = up.id
    where up.level = 'region'
    limit 1
  `);
  const r = rows[0];
  if (!r) return null;
  return {
    id: r.id,
    slug: r.slug,
    name: pickText(r.name, lang, 'en')?.text ?? r.slug,
    timezone: r.timezone,
    currency: r.currency,
    center: r.center_lat !== null && r.center_lon !== null ? { lat: r.center_lat, lon: r.center_lon } : null,
  };
}
