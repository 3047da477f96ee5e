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
          'Answer it with `captcha_id` and `captcha_answer` in the body of login, registration, password-reset request ' +
          `or deletion request when one of them answered 403 \`captcha_required\`. Errors: ${describeCodes('rate_limited')}.`,
        response: { 200: CaptchaResponse, ...errorResponses(429, 500) },
      },
    },
    async (req) => {
      const c = await services.auth.captcha.issue(req.ip);
      return {
        captcha_id: c.captchaId,
        background: c.background,
        piece: c.piece,
        piece_y: c.pieceY,
        width: c.width,
        height: c.height,
        piece_size: c.pieceSize,
        expires_in: c.expiresIn,
      };
    },
  );
}
