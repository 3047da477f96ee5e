import { createGuestClient, type components } from '@guest/client';
import { tokenStore } from './session.ts';
import { language } from './i18n-state.ts';

/**
 * The one SDK client of the page. It talks to the API at the page's own origin, signs requests in
 * with the session's token (refreshing it on 401 and retrying, in the SDK), and asks for texts in
 * the interface language.
 */
export const api = createGuestClient({ baseUrl: window.location.origin, tokens: tokenStore });

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
