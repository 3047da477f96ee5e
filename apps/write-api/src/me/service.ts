import type { z } from 'zod';
import type { WriteDeps } from '../deps.ts';
import type { ProfileResponse, ProfileUpdate } from './schemas.ts';
import { loadProfile, profileFromAlongside, updateProfile } from './store.ts';
import type { SearchFiltersRequest } from './schemas.ts';
import { readSearchFilters, writeSearchFilters } from './search-filters.ts';

/** The profile of the signed-in guest (`/v1/me`) and the search filters saved with it. */
export function createProfileService({ database, config, clock }: Pick<WriteDeps, 'database' | 'config' | 'clock'>) {
  const { db } = database;
  return {
    /**
     * The whole profile; `base` makes the avatar URL absolute. `alongside` is the row the route's
     * guard read with the session check (`PROFILE_ALONGSIDE`), when it did.
     */
    get: async (
      accountId: string,
      base: string,
      alongside?: Record<string, unknown>,
    ): Promise<z.infer<typeof ProfileResponse>> =>
      alongside ? profileFromAlongside(alongside, base) : loadProfile(database, accountId, base),

    /** Changes the fields present in `body` (each checked) and answers the profile as it is now. */
    async update(accountId: string, body: ProfileUpdate, base: string): Promise<z.infer<typeof ProfileResponse>> {
      const today = clock.now().toISOString().slice(0, 10);
      await updateProfile(db, accountId, body, { today, config });
      return loadProfile(database, accountId, base);
    },

    searchFilters: (accountId: string) => readSearchFilters(db, accountId),

    /** Replaces the sections sent, clears those sent as null; a section over the size limit is 400. */
    saveSearchFilters: (accountId: string, body: z.infer<typeof SearchFiltersRequest>) =>
      writeSearchFilters(db, accountId, body, config.SEARCH_FILTER_SECTION_MAX_BYTES),
  };
}

export type ProfileService = ReturnType<typeof createProfileService>;
