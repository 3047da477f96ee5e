import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import multipart from '@fastify/multipart';
import { z } from 'zod';
import { authOf, bearerSecurity, requireAuth } from '@guest/auth';
import { AvatarResponse } from '../../../me/schemas.ts';
import { readSingleFile } from '../../../media/upload.ts';
import { AvatarUploadRequest } from '../../../media/schemas.ts';
import { avatarUrl, publicBase } from '../../../media/urls.ts';
import type { WriteRouteOptions } from '../../../services.ts';

export default async function meAvatar(app: FastifyInstance, { services }: WriteRouteOptions) {
  const { config } = services;
  const maxBytes = config.MAX_UPLOAD_MB * 1_048_576;
  // Parts are read on demand (`req.file()`), so nothing is buffered before the size limit applies.
  await app.register(multipart, { limits: { fileSize: maxBytes, files: 1 } });
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.put(
    '/v1/me/avatar',
    {
      config: {
        errors: ['validation_error', 'unauthorized', 'email_not_confirmed'],
        example: {
          body: { file: "(the image's bytes: JPEG, PNG, HEIC or WebP)" },
          response: {
            avatar_url:
              'https://api.example.com/v1/media/avatars/ef1c492e4d804f27b15d71f95d0614039bab4608508a161649b0ab5e0efe2bbb.jpg',
          },
        },
      },
      onRequest: requireAuth({ confirmed: true }),
      // The multipart body is read part by part in the handler; its schema only documents it.
      validatorCompiler: () => (data) => ({ value: data }),
      schema: {
        operationId: 'uploadAvatar',
        tags: ['me'],
        summary: 'Upload a new avatar',
        description:
          "multipart/form-data with one part `file`: a JPEG, PNG, HEIC or WebP image, recognised by its bytes (the part's " +
          'Content-Type is a hint only: `application/octet-stream` is fine). ' +
          `At most \`max_upload_mb\` (${config.MAX_UPLOAD_MB} MB) and ${config.MAX_IMAGE_MEGAPIXELS} megapixels. The image is ` +
          're-encoded as JPEG (longest side at most ' +
          `${config.AVATAR_MAX_SIDE_PX} px) with every piece of metadata removed (EXIF with GPS, XMP, IPTC, ICC). ` +
          'Refusals are 400 `validation_error` on `file` with `details.reason`: `not_multipart`, `missing`, `empty`, ' +
          '`too_large`, `unsupported_type`, `too_many_pixels`, `corrupt`. `avatar_url` is a new public, immutable URL on ' +
          `every upload (\`GET /v1/media/avatars/{file}\`); the previous one answers 404.`,
        security: bearerSecurity,
        consumes: ['multipart/form-data'],
        body: AvatarUploadRequest,
        response: { 200: AvatarResponse },
      },
    },
    async (req) => {
      const { accountId } = authOf(req);
      const file = await readSingleFile(req, maxBytes);
      const name = await services.media.replaceAvatar(accountId, file);
      return { avatar_url: avatarUrl(publicBase(req), name) };
    },
  );

  r.delete(
    '/v1/me/avatar',
    {
      config: { errors: ['unauthorized', 'email_not_confirmed'], example: { after: ['getMedia', 'getAvatar'] } },
      onRequest: requireAuth({ confirmed: true }),
      schema: {
        operationId: 'deleteAvatar',
        tags: ['me'],
        summary: 'Remove the avatar',
        description: `The file is deleted; \`avatar_url\` becomes null. Repeating it is harmless.`,
        security: bearerSecurity,
        response: { 204: z.null().meta({ description: 'Removed.' }) },
      },
    },
    async (req, reply) => {
      await services.media.removeAvatar(authOf(req).accountId);
      return reply.code(204).send(null);
    },
  );
}
