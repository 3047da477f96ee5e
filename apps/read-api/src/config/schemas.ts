import { z } from 'zod';
import { LANGUAGES } from '@guest/http-kit';
import { PlacePoint } from '../places/schemas.ts';

/** Shapes of `/v1/config` (spec 4.5). */

export const MapStartView = z
  .object({
    lat: z.number(),
    lon: z.number(),
    zoom: z.number(),
  })
  .meta({ id: 'MapStartView', description: 'Where the map opens.' });

export const MapConfig = z
  .object({
    style_url: z.string().meta({ description: 'Map style through this API (`/v1/map/style.json`).' }),
    tilejson_url: z.string().meta({ description: 'TileJSON of the tiles through this API.' }),
    tiles_url: z.string().meta({ description: 'Tile URL template with `{z}`, `{x}`, `{y}`, through this API.' }),
    relief_url: z.string().meta({ description: 'Terrain (relief) tile URL template, through this API.' }),
    glyphs_url: z.string().meta({ description: 'Glyphs URL template with `{fontstack}` and `{range}`.' }),
    sprite_url: z.string().meta({ description: 'Sprite base URL; the client appends `[@2x].json` / `.png`.' }),
    start: MapStartView,
    min_zoom: z.number().int(),
    max_zoom: z.number().int(),
  })
  .meta({
    id: 'MapConfig',
    description: 'Map settings from the server. All resource URLs go through `/v1/map/…`, the proxy of the provider.',
  });

export const SearchLimits = z
  .object({
    limit_default: z.number().int().meta({ description: 'Default `limit` of search and events lists.' }),
    limit_max: z.number().int().meta({ description: 'Largest `limit` of search and events lists.' }),
    map_max_points: z.number().int().meta({ description: 'Most points a map answer holds (`truncated` beyond).' }),
    calendar_days_default: z.number().int().meta({ description: 'Default `days` of the events calendar strip.' }),
    calendar_days_max: z.number().int().meta({ description: 'Largest `days` of the events calendar strip.' }),
    upcoming_days_default: z.number().int().meta({ description: 'Default `days` window of upcoming events.' }),
    schedule_horizon_days: z.number().int().meta({ description: 'How far ahead event schedules are searched.' }),
  })
  .meta({ id: 'SearchLimits' });

export const RegionInfo = z
  .object({
    id: z.number().int(),
    slug: z.string(),
    name: z.string().meta({ description: 'In the request language, else English.' }),
    timezone: z.string().nullable(),
    currency: z.string().nullable(),
    center: PlacePoint.nullable(),
  })
  .meta({
    id: 'RegionInfo',
    description:
      'The events region: the place of level `region` at the map start point. Places carry a centre, not an ' +
      'area: the region is that of the place whose centre is nearest to the start point (within a set distance).',
  });

export const ConfigResponse = z
  .object({
    map: MapConfig,
    languages: z.array(z.enum(LANGUAGES)).meta({ description: 'Interface languages.' }),
    default_language: z.enum(LANGUAGES),
    currencies: z.array(z.string()).meta({ description: 'Currency codes the catalog knows (ISO 4217).' }),
    base_currency: z.string().meta({
      description: 'Currency prices are normalised to for sorting and price filters; FX rates are quoted against it.',
    }),
    search: SearchLimits,
    online_payments_enabled: z.boolean(),
    service_fee_percent: z.number(),
    max_upload_mb: z.number().int(),
    review_window_days: z
      .number()
      .int()
      .default(14)
      .meta({ description: 'Days after a trip during which a review may be left.' }),
    assistant_enabled: z.boolean().default(false),
    region: RegionInfo.nullable(),
  })
  .meta({ id: 'ConfigResponse' });
