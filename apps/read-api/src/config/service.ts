import type { Config } from '@guest/config';
import type { Db } from '@guest/db';
import { BASE_CURRENCY } from '@guest/catalog';
import { DEFAULT_LANG, LANGUAGES, type Lang } from '@guest/http-kit';
import type { CurrenciesService } from '../currencies/service.ts';
import { regionAt } from './region.ts';

export interface ClientConfigServiceDeps {
  config: Config;
  db: Db;
  currencies: Pick<CurrenciesService, 'codes'>;
}

export type ClientConfigService = ReturnType<typeof createClientConfigService>;

/**
 * What a client needs to know about this server before anything else (spec 4.5, `/v1/config`):
 * map settings, languages, currencies, search limits, payment and upload settings, and the events
 * region. Refuses to be made with a map start zoom outside the map's zoom range.
 */
export function createClientConfigService(deps: ClientConfigServiceDeps) {
  const { config, db } = deps;
  if (!(config.MAP_MIN_ZOOM <= config.MAP_START_ZOOM && config.MAP_START_ZOOM <= config.MAP_MAX_ZOOM)) {
    throw new Error('MAP_START_ZOOM: must lie between MAP_MIN_ZOOM and MAP_MAX_ZOOM');
  }

  /** Codes of the catalog's currencies table; the CURRENCIES setting until the catalog has any. */
  async function currencies(): Promise<string[]> {
    const codes = await deps.currencies.codes();
    return codes.length ? codes : config.CURRENCIES;
  }

  return {
    /** The configuration, map resources addressed under `apiUrl`, the region named in `lang`. */
    async get(opts: { apiUrl: string; lang: Lang }) {
      const base = `${opts.apiUrl}/v1/map`;
      const [codes, region] = await Promise.all([
        currencies(),
        regionAt(db, config.MAP_START_LAT, config.MAP_START_LON, config.MAP_REGION_MATCH_KM, opts.lang),
      ]);
      return {
        map: {
          style_url: `${base}/style.json`,
          tilejson_url: `${base}/tiles.json`,
          tiles_url: `${base}/tiles/{z}/{x}/{y}.${config.MAP_TILE_FORMAT}`,
          relief_url: `${base}/relief/{z}/{x}/{y}.${config.MAP_RELIEF_FORMAT}`,
          glyphs_url: `${base}/fonts/{fontstack}/{range}.pbf`,
          sprite_url: `${base}/sprites/sprite`,
          start: { lat: config.MAP_START_LAT, lon: config.MAP_START_LON, zoom: config.MAP_START_ZOOM },
          min_zoom: config.MAP_MIN_ZOOM,
          max_zoom: config.MAP_MAX_ZOOM,
        },
        languages: [...LANGUAGES],
        default_language: DEFAULT_LANG,
        currencies: codes,
        base_currency: BASE_CURRENCY,
        search: {
          limit_default: config.SEARCH_LIMIT_DEFAULT,
          limit_max: config.SEARCH_LIMIT_MAX,
          map_max_points: config.MAP_MAX_POINTS,
          calendar_days_default: config.CALENDAR_DAYS_DEFAULT,
          calendar_days_max: config.CALENDAR_DAYS_MAX,
          upcoming_days_default: config.UPCOMING_DAYS_DEFAULT,
          schedule_horizon_days: config.EVENTS_HORIZON_DAYS,
        },
        online_payments_enabled: config.ONLINE_PAYMENTS_ENABLED,
        service_fee_percent: config.SERVICE_FEE_PERCENT,
        max_upload_mb: config.MAX_UPLOAD_MB,
        review_window_days: config.REVIEW_WINDOW_DAYS,
        assistant_enabled: config.ASSISTANT_ENABLED,
        region,
      };
    },
  };
}
