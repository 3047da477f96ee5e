import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { describeCodes, errorResponses } from '@guest/http-kit';
import { CaptchaResponse } from '../../../auth/schemas.ts';
import type { WriteRouteOptions } from '../../../services.ts';

export default async function captcha(app: FastifyInstance, { services }: WriteRouteOptions) {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/v1/auth/captcha',
    {
      config: {
        example: {
          response: {
            captcha_id: '8c36dca4-0450-4979-92b9-70a2422d7066',
            background: 'data:image/png;base64,iVBORw0KGgoAAAANSU…',
            piece: 'data:image/png;base64,iVBORw0KGgoAAAANSU…',
            width: 320,
            height: 160,
            piece_size: 56,
            pow: { algorithm: 'sha256', prefix: 'f3dcf83a4203a0b462aa9213bbccf8a3', difficulty_bits: 13 },
            expires_in: 120,
          },
        },
      },
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
      const c = await services.auth.captcha.issue(req.addressKey);
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
