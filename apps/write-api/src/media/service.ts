import type { Readable } from 'node:stream';
import { errors } from '@guest/http-kit';
import type { WriteDeps } from '../deps.ts';
import { issueTicket, publicAvatar, readableFile, removeAvatar, replaceAvatar, spendTicket } from './files.ts';
import type { UploadedFile } from './upload.ts';

type MediaDeps = Pick<WriteDeps, 'database' | 'storage' | 'config' | 'clock' | 'work'>;

/** Private files (`/v1/media`) and the avatar that is one of them (`/v1/me/avatar`). */
export function createMediaService({ database, storage, config, clock, work }: MediaDeps) {
  const { db } = database;
  return {
    /**
     * Checks and re-encodes an uploaded picture (metadata stripped) and makes it the account's
     * avatar; returns the new avatar's public name (a new URL on every upload).
     */
    async replaceAvatar(accountId: string, upload: UploadedFile): Promise<string> {
      // Decoded in the work pool (a HEIC holds its thread for seconds); 503 when the pool is full.
      const input = new Uint8Array(upload.data);
      const out = await work.images.run(
        {
          kind: 'avatar',
          input,
          limits: {
            maxMegapixels: config.MAX_IMAGE_MEGAPIXELS,
            maxHeicMegapixels: config.MAX_HEIC_MEGAPIXELS,
            maxSidePx: config.AVATAR_MAX_SIDE_PX,
            jpegQuality: config.AVATAR_JPEG_QUALITY,
          },
        },
        [input.buffer],
      );
      if (!out.ok) throw errors.validation('file', out.message, { reason: out.reason, ...out.extra });
      const data = Buffer.from(out.data.buffer, out.data.byteOffset, out.data.byteLength);
      return replaceAvatar(db, storage, accountId, {
        data,
        contentType: 'image/jpeg',
        width: out.width,
        height: out.height,
      });
    },

    /**
     * A public avatar by its name, for anyone who has the URL (an image element sends no token);
     * a replaced or removed one, and any other name, is 404.
     */
    async openAvatar(name: string): Promise<{ contentType: string; size: number; stream: Readable }> {
      const file = await publicAvatar(db, name);
      const stored = file ? await storage.get(file.storageKey) : null;
      if (!file || !stored) throw errors.notFound();
      return { contentType: file.contentType, size: stored.size, stream: stored.stream };
    },

    /** Removes the avatar (idempotent). */
    removeAvatar: (accountId: string): Promise<void> => removeAvatar(db, storage, accountId),

    /** A one-time ticket to one file for the caller's session; only the owner gets one (else 404). */
    async issueTicket(
      caller: { accountId: string; sessionId: string },
      mediaId: string,
    ): Promise<{ ticket: string; expiresIn: number; expiresAt: Date }> {
      const ttlS = config.MEDIA_TICKET_TTL_S;
      const { ticket, expiresAt } = await issueTicket(db, mediaId, caller, clock.now(), ttlS);
      return { ticket, expiresIn: ttlS, expiresAt };
    },

    /**
     * The file for its reader: the account of the ticket's session when `ticket` is given (the
     * ticket is spent whatever the outcome), else the signed-in `actorId`. Only the owner gets it;
     * anyone else, a spent or expired ticket and a missing file are the same 404.
     */
    async open(
      mediaId: string,
      reader: { ticket: string | null | undefined; actorId: string | null },
    ): Promise<{ contentType: string; size: number; stream: Readable }> {
      const readerId = reader.ticket ? await spendTicket(db, mediaId, reader.ticket, clock.now()) : reader.actorId;
      const file = await readableFile(db, mediaId, readerId);
      const stored = file ? await storage.get(file.storageKey) : null;
      if (!file || !stored) throw errors.notFound();
      return { contentType: file.contentType, size: stored.size, stream: stored.stream };
    },
  };
}

export type MediaService = ReturnType<typeof createMediaService>;
