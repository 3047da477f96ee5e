import type { FastifyRequest } from 'fastify';
import { publicBaseUrl } from '@guest/http-kit';

/** Base of absolute URLs the API hands out: PUBLIC_BASE_URL, never the request's Host header. */
export function publicBase(req: FastifyRequest): string {
  return publicBaseUrl(req);
}

/** A private file, for its owner (bearer token) or with a one-time ticket (spec 4.3). */
export function mediaUrl(base: string, mediaId: string): string {
  return `${base}/v1/media/${mediaId}`;
}

/** A public avatar: unguessable, immutable, loadable without a token (issue 10 point 5). */
export function avatarUrl(base: string, publicName: string): string {
  return `${base}/v1/media/avatars/${publicName}.jpg`;
}

/** The public name of a stored avatar, from its storage key (`avatars/<name>.jpg`). */
export function publicNameOf(storageKey: string): string | null {
  return /^avatars\/([0-9a-f-]{32,})\.jpg$/.exec(storageKey)?.[1]?.replace(/-/g, '') ?? null;
}
