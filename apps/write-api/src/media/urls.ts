import type { FastifyRequest } from 'fastify';

/** Base of absolute URLs the API hands out: PUBLIC_BASE_URL, else the request's own origin. */
export function publicBase(req: FastifyRequest, configured: string | undefined): string {
  return (configured ?? `${req.protocol}://${req.host}`).replace(/\/+$/, '');
}

export function mediaUrl(base: string, mediaId: string): string {
  return `${base}/v1/media/${mediaId}`;
}
