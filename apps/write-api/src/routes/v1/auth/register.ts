import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { eq } from 'drizzle-orm';
import { schema } from '@guest/db';
import { AppError, describeCodes, errorResponses, errors } from '@guest/http-kit';
import { hashPassword, isAllowedToSignIn, passwordProblem, PASSWORD_PROBLEM_MESSAGES } from '@guest/auth';
import { inTransaction } from '@guest/jobs';
import { enqueueMail } from '@guest/mail';
import { RegisterRequest, TokenPairResponse } from '../../../accounts/schemas.ts';
import { normalizeEmail } from '../../../accounts/email.ts';
import { clientMeta, openSession, tokenPair } from '../../../accounts/sessions.ts';
import { issueEmailToken } from '../../../accounts/email-tokens.ts';
import { confirmEmailMail } from '../../../accounts/mails.ts';
import { checkCaptcha, hitSignal } from '../../../accounts/captcha-policy.ts';
import type { RouteOptions } from '../../../accounts/context.ts';

const { accounts } = schema;

const emailTaken = () =>
  errors.conflict('email_taken', 'An account with this email exists; sign in or reset the password.', {
    field: 'email',
  });

export default async function register(app: FastifyInstance, { ctx }: RouteOptions) {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/v1/auth/register',
    {
      config: { idempotent: true },
      schema: {
        tags: ['auth'],
        summary: 'Create an account and sign in',
        description:
          'Opens a session and mails an email-confirmation link. Accepts `Idempotency-Key`. ' +
          '`accept_terms` must be true and the password must follow the rules (10–128 characters, not common, not the email): ' +
          'otherwise 400 `validation_error` with `details.field` and `details.reason`. A burst of attempts from one address, ' +
          `whatever their outcome, demands a captcha. Errors: ${describeCodes('validation_error', 'forbidden', 'captcha_required', 'conflict', 'schema_invalid', 'rate_limited')}; ` +
          '409 `conflict` (`details.reason` = `email_taken`) when the email is registered.',
        body: RegisterRequest,
        response: { 201: TokenPairResponse, ...errorResponses(400, 403, 409, 422, 429, 500) },
      },
    },
    async (req, reply) => {
      const { config, database } = app.runtime;
      const body = req.body;
      // Every attempt from the address counts toward the burst, whatever its outcome (taken email,
      // broken rule, success), and before any work: probing which emails exist, or making the
      // server hash passwords, is not free beyond the burst.
      const attempts = await hitSignal(app, 'register-address', req.ip, 3600);
      await checkCaptcha(app, attempts > config.CAPTCHA_AFTER_REGISTRATIONS_PER_ADDRESS, body);

      if (!body.accept_terms) {
        throw errors.validation('accept_terms', 'Registration needs consent to the terms.', { reason: 'must_be_true' });
      }
      const email = normalizeEmail(body.email);
      if (!isAllowedToSignIn(ctx.allowlist, email)) {
        throw new AppError('forbidden', 'This email may not sign in on this stand.', { reason: 'not_on_allowlist' });
      }
      const problem = passwordProblem(body.password, email);
      if (problem) throw errors.validation('password', PASSWORD_PROBLEM_MESSAGES[problem], { reason: problem });

      // A taken email is answered before the expensive hash; the insert below still settles races.
      const [existing] = await database.db
        .select({ id: accounts.id })
        .from(accounts)
        .where(eq(accounts.email, email))
        .limit(1);
      if (existing) throw emailTaken();

      const passwordHash = await hashPassword(config, body.password);
      const pair = await inTransaction(database, async (tx, jobDb) => {
        const [account] = await tx
          .insert(accounts)
          .values({
            email,
            passwordHash,
            firstName: body.first_name,
            lastName: body.last_name,
            marketingOptIn: body.marketing_opt_in,
            termsAcceptedAt: new Date(),
          })
          .onConflictDoNothing({ target: accounts.email })
          .returning({ id: accounts.id });
        if (!account) throw emailTaken();
        const session = await openSession(tx, app, account.id, clientMeta(req));
        const token = await issueEmailToken(tx, account.id, 'confirm_email', config.EMAIL_CONFIRM_TTL_H * 60);
        await enqueueMail(tx, jobDb, ctx.jobs, {
          to: email,
          accountId: account.id,
          ...confirmEmailMail(config, body.first_name, token),
        });
        return tokenPair(app, account.id, session.sessionId, session.refreshToken);
      });
      return reply.code(201).header('cache-control', 'no-store').send(pair);
    },
  );
}
