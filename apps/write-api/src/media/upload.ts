import type { FastifyRequest } from 'fastify';
import { errors } from '@guest/http-kit';

export interface UploadedFile {
  data: Buffer;
  mimetype: string;
  filename: string;
}

/**
 * Reads the one `file` part of a multipart request into memory, at most `maxBytes` (the
 * `max_upload_mb` limit). Every client mistake is 400 `validation_error` on `file` with a reason:
 * `not_multipart`, `missing`, `too_large`.
 */
export async function readSingleFile(req: FastifyRequest, maxBytes: number): Promise<UploadedFile> {
  if (!req.isMultipart()) {
    throw errors.validation('file', 'Send the image as multipart/form-data with a part named "file".', {
      reason: 'not_multipart',
    });
  }
  const maxMb = Math.round(maxBytes / 1_048_576);
  let part;
  try {
    part = await req.file({ limits: { fileSize: maxBytes, files: 1, fields: 10, parts: 11 } });
  } catch (err) {
    throw translate(err, maxMb);
  }
  if (!part || part.fieldname !== 'file') {
    throw errors.validation('file', 'The multipart body has no part named "file".', { reason: 'missing' });
  }
  let data: Buffer;
  try {
    data = await part.toBuffer();
  } catch (err) {
    throw translate(err, maxMb);
  }
  if (!data.length) throw errors.validation('file', 'The file is empty.', { reason: 'empty' });
  return { data, mimetype: part.mimetype, filename: part.filename };
}

function translate(err: unknown, maxMb: number): unknown {
  const code = (err as { code?: string }).code;
  if (code === 'FST_REQ_FILE_TOO_LARGE') {
    return errors.validation('file', `The file is larger than ${maxMb} MB.`, {
      reason: 'too_large',
      max_upload_mb: maxMb,
    });
  }
  if (code?.startsWith('FST_')) {
    return errors.validation('file', 'The multipart body could not be read.', { reason: 'malformed_multipart' });
  }
  return err;
}
