import type { WriteDeps } from './deps.ts';
import { createAuthService } from './accounts/service.ts';

/**
 * The services of the write API, made once per app from its dependencies. Route modules get this
 * object in their plugin options and reach nothing else: they parse, call one service function
 * and shape the reply.
 */
export function createWriteServices(deps: WriteDeps) {
  return {
    /** The settings routes document and validate with (limits in descriptions, page sizes). */
    config: deps.config,
    auth: createAuthService(deps),
  };
}

export type WriteServices = ReturnType<typeof createWriteServices>;

/** Plugin options of every route module of the write API. */
export interface WriteRouteOptions {
  services: WriteServices;
}
