import { z } from 'zod';

// One zod schema per body: validates, types the handler and writes the OpenAPI document.

const captchaFields = {
  captcha_id: z
    .string()
    .max(100)
    .default('')
    .meta({ description: 'From `POST /v1/auth/captcha`; empty unless demanded.' }),
  // A string, as the specification types it: one type for every client and generator.
  captcha_answer: z
    .string()
    .regex(/^([0-9]{1,5})?$/, 'decimal digits only')
    .default('')
    .meta({
      description:
        "The piece's x offset in pixels, in decimal digits only (no sign, space, exponent or hex); empty unless demanded.",
    }),
  captcha_nonce: z
    .string()
    .regex(/^([0-9]{1,20})?$/, 'decimal digits only')
    .default('')
    .meta({ description: "The captcha's proof-of-work nonce (see `POST /v1/auth/captcha`); empty unless demanded." }),
};

export const Email = z.email().max(320).meta({ description: 'Email address, compared without regard to case.' });
// Rules beyond the type (length 10-128, not common, not the email) are checked by the handler
// and answered with 400 `validation_error`, DESIGN G5a/G7a; the cap only bounds hashing work.
const Password = z
  .string()
  .max(1024)
  .meta({ description: '10 to 128 characters; not a common password, not the email.' });
const OpaqueToken = z.string().min(1).max(200);

export const TokenPairResponse = z
  .object({
    access_token: z.string().meta({
      description:
        'JWT for every operation of this API that takes sign-in (`Authorization: Bearer …`), optional sign-in included ' +
        '(`is_favorite` in search), and for the socket (`/v1/ws?access_token=…`).',
    }),
    refresh_token: z
      .string()
      .meta({ description: 'Opaque; exchange at `POST /v1/auth/refresh`. Stays the same for the whole session.' }),
    token_type: z.string().default('Bearer'),
    expires_in: z.number().int().meta({ description: 'Seconds the access token lives (900).' }),
    session_id: z.uuid(),
  })
  .meta({ id: 'TokenPairResponse' });

export const EmailAvailabilityQuery = z.object({
  email: z.string().min(3).max(320).meta({ description: '3 to 320 characters.' }),
});
export const EmailAvailabilityResponse = z.object({ available: z.boolean() }).meta({ id: 'EmailAvailabilityResponse' });

export const RegisterRequest = z
  .object({
    ...captchaFields,
    first_name: z.string().trim().min(1).max(100),
    last_name: z.string().trim().min(1).max(100),
    email: Email,
    password: Password,
    accept_terms: z.boolean().meta({ description: 'Must be true: registration is impossible without consent.' }),
    marketing_opt_in: z.boolean().default(false),
  })
  .meta({ id: 'RegisterRequest' });

export const LoginRequest = z
  .object({ ...captchaFields, email: Email, password: Password })
  .meta({ id: 'LoginRequest' });
export const RefreshRequest = z.object({ refresh_token: OpaqueToken }).meta({ id: 'RefreshRequest' });
export const ConfirmEmailRequest = z.object({ token: OpaqueToken }).meta({ id: 'ConfirmEmailRequest' });
export const PasswordResetRequest = z.object({ ...captchaFields, email: Email }).meta({ id: 'PasswordResetRequest' });
export const PasswordResetConfirm = z
  .object({ token: OpaqueToken, password: Password })
  .meta({ id: 'PasswordResetConfirm' });
export const PasswordChangeRequest = z
  .object({ current_password: Password, new_password: Password })
  .meta({ id: 'PasswordChangeRequest' });
export const DeleteRequest = z.object(captchaFields).meta({ id: 'DeleteRequest' });

export const WsTicketResponse = z
  .object({
    ticket: z.string().meta({ description: 'For `/v1/ws?ticket=…`; single use.' }),
    expires_in: z.number().int().meta({ description: 'Seconds the ticket is valid (60).' }),
  })
  .meta({ id: 'WsTicketResponse' });

export const SessionResponse = z
  .object({
    id: z.uuid(),
    current: z.boolean().meta({ description: 'True for the session of the token that asks.' }),
    created_at: z.iso.datetime(),
    last_used_at: z.iso.datetime(),
    expires_at: z.iso
      .datetime()
      .meta({ description: 'Moves forward with each refresh, never past the end of the session’s longest life.' }),
    ip: z.string().meta({ description: 'Address last seen.' }),
    user_agent: z.string().nullable(),
  })
  .meta({ id: 'SessionResponse' });
export const SessionList = z.array(SessionResponse);
export const SessionIdParams = z.object({ session_id: z.uuid() });

export const CaptchaRequest = z
  .object({
    email: Email.optional().meta({
      description:
        'The email of the login, registration or password-reset request the captcha is for. The price of the proof ' +
        'of work grows with its failures, and the challenge answers only for it. Without it the challenge answers ' +
        'for any email whose level it reaches.',
    }),
  })
  .meta({ id: 'CaptchaRequest' });

export const CaptchaResponse = z
  .object({
    captcha_id: z.uuid(),
    background: z.string().meta({
      description:
        'PNG data URL: the picture with soft dark shadows of several shapes; one has the shape of the piece.',
    }),
    piece: z.string().meta({
      description:
        'PNG data URL with transparency, `piece_size` pixels square: the shape to slide onto its shadow. The answer ' +
        'is the x offset of this square when the shape sits centred on its shadow (it is drawn a little smaller ' +
        'and turned, so it fits inside).',
    }),
    width: z.number().int(),
    height: z.number().int(),
    piece_size: z.number().int(),
    pow: z
      .object({
        algorithm: z.literal('PBKDF2/SHA-256'),
        nonce: z.string().meta({
          description: 'Hex: the PBKDF2 password is these bytes followed by the counter (uint32, big-endian).',
        }),
        salt: z.string().meta({ description: 'Hex: the PBKDF2 salt.' }),
        cost: z.number().int().meta({ description: 'PBKDF2 iterations for each counter tried.' }),
        key_length: z.number().int().meta({ description: 'Bytes of the derived key.' }),
        key_prefix: z
          .string()
          .meta({ description: 'Hex: the derived key of the right counter starts with these bytes.' }),
        max_counter: z
          .number()
          .int()
          .meta({ description: 'The counter is below this number; half of it is the expected work.' }),
        level: z
          .number()
          .int()
          .meta({ description: '1 when a captcha is first demanded; each level above doubles max_counter.' }),
      })
      .meta({
        id: 'CaptchaProofOfWork',
        description:
          "ALTCHA's proof of work v2 (PBKDF2/SHA-256, altcha-lib's solvers work as they are): try counters 0, 1, 2, ... " +
          'and send the one whose derived key starts with key_prefix as captcha_nonce (decimal digits).',
      }),
    expires_in: z
      .number()
      .int()
      .meta({ description: 'Seconds the challenge can be answered; it can be answered once.' }),
  })
  .meta({
    id: 'CaptchaResponse',
    description:
      'Slider puzzle. The picture holds soft dark shadows of several shapes (a heart, a star, a cross, ...); ' +
      'the piece has the shape of one of them, a little smaller and turned. Its row is not given: show it beside the ' +
      'picture and let the person slide it sideways until it sits on its shadow (a hint such as "Slide the shape onto ' +
      'its shadow" helps). The answer (`captcha_answer`) is the x offset in pixels of the piece\'s square when the shape ' +
      'is centred on its shadow (a JSON integer or decimal digits); ±4 is tolerated by default. `captcha_nonce` carries ' +
      'the counter that solves the proof of work (`pow`). A challenge is answered once, right or wrong, within ' +
      '`expires_in` seconds, from the address and session that fetched it, for the email it was fetched for.',
  });

/**
 * A response without content (spec: "202, empty body"): `z.null()` makes the OpenAPI entry carry
 * no `content`. Answer with `reply.code(202).send(undefined as never)`, never with `send(null)`,
 * which is serialized as the JSON text `null` (guarded by test/auth/openapi.test.ts).
 */
export const EmptyBody = z.null().meta({ description: 'Empty body.' });
