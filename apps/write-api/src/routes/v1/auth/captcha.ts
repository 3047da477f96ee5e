import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { describeCodes, errorResponses } from '@guest/http-kit';
import { CaptchaResponse } from '../../../auth/schemas.ts';
import type { WriteRouteOptions } from '../../../services.ts';

export default async function captcha(app: FastifyInstance, { services }: WriteRouteOptions) {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/v1/auth/captcha',
    {
      schema: {
        tags: ['auth'],
        summary: 'Get a slider-puzzle captcha (DESIGN G5d)',
        description:
          'Answer it with `captcha_id`, `captcha_answer` and `captcha_nonce` in the body of login, registration, ' +
          'password-reset request or deletion request when one of them answered 403 `captcha_required`.\n\n' +
          'Proof of work: find a nonce, written in decimal digits, such that SHA-256 of the UTF-8 text `pow.prefix` ' +
          'followed by the nonce starts with `pow.difficulty_bits` zero bits (13 by default, `CAPTCHA_POW_BITS`: ' +
          '8,192 hashes on average, about 100-300 ms with WebCrypto in a browser; try nonces 0, 1, 2, ...). The ' +
          'server checks it with one hash. Without it, or with a wrong one, the answer is refused like a wrong ' +
          `offset. Errors: ${describeCodes('rate_limited')}.`,
        response: { 200: CaptchaResponse, ...errorResponses(429, 500) },
      },
    },
    async (req) => {
      const c = await services.auth.captcha.issue(req.ip);
      return {
        captcha_id: c.captchaId,
        background: c.background,
        piece: c.piece,
        width: c.width,
        height: c.height,
        piece_size: c.pieceSize,
        pow: { algorithm: c.pow.algorithm, prefix: c.pow.prefix, difficulty_bits: c.pow.difficultyBits },
        expires_in: c.expiresIn,
      };
    },
  );
}
