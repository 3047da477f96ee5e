import { api, type Schemas } from './api.ts';
import type { FxRates } from './fx.ts';

/** `/v1/config` and the FX rates: loaded once at start (map start view, currencies, limits). */
export let appConfig: Schemas['ConfigResponse'] | null = null;
export let fxRates: Schemas['FxRatesResponse'] | null = null;

export async function loadConfig(): Promise<void> {
  const [config, fx] = await Promise.all([api.GET('/v1/config'), api.GET('/v1/fx/rates')]);
  appConfig = config.data ?? null;
  fxRates = fx.data ?? null;
}

/** The FX rates as the conversions take them (null before they are loaded or when they failed). */
export function fxRatesOf(): FxRates | null {
  return fxRates ? { base: fxRates.base, rates: fxRates.rates as Record<string, number> } : null;
}
