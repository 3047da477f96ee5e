import type { WriteDeps } from './deps.ts';
import { createAuthService } from './auth/service.ts';
import { createBadgesService } from './badges/service.ts';
import { createDevicesService } from './devices/service.ts';
import { createFavoritesService } from './favorites/service.ts';
import { createMediaService } from './media/service.ts';
import { createPrefsService } from './prefs/service.ts';
import { createProfileService } from './me/service.ts';
import { createTransactionsService } from './transactions/service.ts';

/**
 * The services of the write API, made once per app from its dependencies (`app.ts`). Route
 * modules get this object in their plugin options and reach nothing else: they parse, call one
 * service function and shape the reply.
 */
export function createWriteServices(deps: WriteDeps) {
  return {
    /** The settings routes document and validate with (limits in descriptions, page sizes). */
    config: deps.config,
    auth: createAuthService(deps),
    profile: createProfileService(deps),
    prefs: createPrefsService(deps),
    favorites: createFavoritesService(deps),
    transactions: createTransactionsService(deps),
    media: createMediaService(deps),
    devices: createDevicesService(deps),
    badges: createBadgesService(deps),
  };
}

export type WriteServices = ReturnType<typeof createWriteServices>;

/** Plugin options of every route module of the write API. */
export interface WriteRouteOptions {
  services: WriteServices;
}
