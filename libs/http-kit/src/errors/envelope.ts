import { z } from 'zod';
import type { AppError } from './app-error.ts';

export const ErrorEnvelope = z
  .object({
    error: z.object({
      code: z.string().meta({ description: 'Machine-readable; clients branch on it.' }),
      message: z.string().meta({ description: 'For humans; may change.' }),
      details: z.record(z.string(), z.unknown()).meta({
        description: '`field` (one field name) or `fields` (several), `reason`, and other context.',
      }),
      request_id: z.string(),
    }),
  })
  .meta({ id: 'ErrorEnvelope' });

export type ErrorEnvelopeBody = z.infer<typeof ErrorEnvelope>;

export function envelope(err: AppError, requestId: string): ErrorEnvelopeBody {
  return { error: { code: err.code, message: err.message, details: err.details, request_id: requestId } };
}
