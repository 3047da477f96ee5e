import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { optionalAuth } from '@guest/auth';
import { CaptchaRequest, CaptchaResponse } from '../../../auth/schemas.ts';
import { emailKey } from '../../../auth/email.ts';
import type { WriteRouteOptions } from '../../../services.ts';

export default async function captcha(app: FastifyInstance, { services }: WriteRouteOptions) {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/v1/auth/captcha',
    {
      onRequest: optionalAuth(),
      config: {
        errors: ['unauthorized', 'schema_invalid'],
        example: {
          body: { email: 'anna.lee@example.com' },
          response: {
            captcha_id: '8c36dca4-0450-4979-92b9-70a2422d7066',
            background: 'data:image/png;base64,iVBORw0KGgoAAAANSU…',
            piece: 'data:image/png;base64,iVBORw0KGgoAAAANSU…',
            width: 320,
            height: 160,
            piece_size: 56,
            pow: {
              algorithm: 'PBKDF2/SHA-256',
              nonce: '5b0e3f8f3d2c4a1b9e8d7c6b5a493827',
              salt: 'a1b2c3d4e5f60718293a4b5c6d7e8f90',
              cost: 5000,
              key_length: 32,
              key_prefix: '4f1c9d2e8a7b6c5d3e2f1a0b9c8d7e6f',
              max_counter: 4400,
              level: 1,
            },
            expires_in: 120,
          },
        },
      },
      schema: {
        operationId: 'createCaptcha',
        tags: ['auth'],
        summary: 'Get a slider-puzzle captcha with its proof of work',
        description:
          'Answer it with `captcha_id`, `captcha_answer` and `captcha_nonce` in the body of login, registration, ' +
          'password-reset request or deletion request when one of them answered 403 `captcha_required`. Name the ' +
          "request's `email` in the body (the deletion request is signed in: send this with the same token instead).\n\n" +
          'Proof of work (`pow`, ALTCHA PoW v2): find the counter n, from 0 up, such that PBKDF2-HMAC-SHA-256 with ' +
          'password `nonce` bytes followed by n as a big-endian uint32, salt `salt`, `cost` iterations and `key_length` ' +
          'bytes starts with `key_prefix`; send n in decimal digits as `captcha_nonce`. The counter is below ' +
          '`max_counter`, which doubles with each `level`: 1 when a captcha is first demanded, one more for each ' +
          'further failure of the email or of the address (about 2 CPU-seconds of a server core on average at level ' +
          '1; a browser solves with WebCrypto in Web Workers while the person slides the piece). The challenge ' +
          'answers once, within `expires_in` seconds, only from the address and the session that fetched it and for ' +
          'its email; a level below the one asked by the time it is answered is refused (`too_easy`: fetch a new one).',
        body: CaptchaRequest.nullable().optional(),
        response: { 200: CaptchaResponse },
      },
    },
    async (req) => {
      const email = req.body?.email;
      const c = await services.auth.captcha.issue({
        address: req.addressKey,
        emailKey: email ? emailKey(email) : null,
        accountId: req.auth?.accountId ?? null,
        sessionId: req.auth?.sessionId ?? null,
      });
      return {
        captcha_id: c.captchaId,
        background: c.background,
        piece: c.piece,
        width: c.width,
        height: c.height,
        piece_size: c.pieceSize,
        pow: {
          algorithm: c.pow.algorithm,
          nonce: c.pow.nonce,
          salt: c.pow.salt,
          cost: c.pow.cost,
          key_length: c.pow.keyLength,
          key_prefix: c.pow.keyPrefix,
          max_counter: c.pow.maxCounter,
          level: c.pow.level,
        },
        expires_in: c.expiresIn,
      };
    },
  );
}
