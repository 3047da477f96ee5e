import { useEffect, useState } from 'preact/hooks';
import { api, errorCode, type Schemas } from '../api.ts';

export type Profile = Schemas['ProfileResponse'];

/** The signed-in guest's profile (`GET /v1/me`), reloadable, replaceable after a change. */
export function useMe() {
  const [me, setMe] = useState<Profile | null>(null);
  const [error, setError] = useState<string | null>(null);
  async function reload() {
    const { data, error: failed } = await api.GET('/v1/me');
    if (data) setMe(data);
    setError(data ? null : errorCode(failed));
  }
  useEffect(() => {
    void reload();
  }, []);
  return { me, setMe, error, reload };
}
