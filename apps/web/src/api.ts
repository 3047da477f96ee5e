import { createGuestClient, type components } from '@guest/client';
import { clearSession } from './session.ts';
import { language } from './i18n-state.ts';

/**
 * The one SDK client of the page. It talks to the API at the page's own origin in a cookie session
 * (spec 5.12: `X-Session: cookie`, the tokens in HttpOnly cookies the page never sees; the SDK
 * refreshes the session on 401 and retries, and a refused refresh signs the page out), and asks
 * for texts in the interface language.
 */
export const api = createGuestClient({
  baseUrl: window.location.origin,
  session: 'cookie',
  onSignedOut: clearSession,
});

api.use({
  onRequest({ request }) {
    if (!request.headers.has('accept-language')) request.headers.set('accept-language', language.get());
    return request;
  },
});

export type Schemas = components['schemas'];
export type ErrorEnvelope = Schemas['ErrorEnvelope'];

/** The error code of an SDK answer's `error` (the envelope), or `network` when there was none. */
export function errorCode(error: unknown): string {
  const code = (error as { error?: { code?: unknown } } | undefined)?.error?.code;
  return typeof code === 'string' ? code : 'network';
}
