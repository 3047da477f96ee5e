import { z } from 'zod';

export const MediaParams = z.object({ media_id: z.uuid() });

export const MediaTicketResponse = z
  .object({
    ticket: z.string().meta({ description: 'One-time ticket; send it as `t` to `GET /v1/media/{media_id}`.' }),
    url: z
      .string()
      .meta({ description: 'Ready-made one-time link: `…/v1/media/{media_id}?t={ticket}`, for an image element.' }),
    expires_in: z.number().int().meta({ description: 'Seconds the ticket stays valid (60).' }),
    expires_at: z.iso.datetime(),
  })
  .meta({ id: 'MediaTicketResponse' });

export const MediaDownloadQuery = z.object({
  t: z.string().min(1).max(200).nullable().optional().meta({ description: 'One-time file ticket.' }),
});

/**
 * The avatar upload, for the OpenAPI description: one multipart part `file`. The route reads the
 * part as a stream (never buffered by a body parser), so this shape documents the request and the
 * checks happen in the upload reader and image pipeline, answering 400 on `file`.
 */
export const AvatarUploadRequest = z
  .object({
    file: z.custom<unknown>().meta({
      type: 'string',
      format: 'binary',
      description: 'JPEG, PNG, HEIC or WebP, recognised by its bytes; the declared Content-Type is a hint only.',
    }),
  })
  .meta({ id: 'AvatarUploadRequest' });
