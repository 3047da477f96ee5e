import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Runtime } from '@guest/runtime';
import { runAll } from '@guest/server/run-all';
import { createIsolatedEnv, type IsolatedEnv } from '../support/isolated-env.ts';
import { http } from '../support/http.ts';
import { uniqueEmail, PASSWORD } from '../write-api/auth/support.ts';
import { envelopeOf, refusal, tokenExpiringIn } from './support.ts';

/*
 * The one-base-URL server (apps/server, the way clients reach the API): the socket refuses with
 * the same envelopes through its proxy as the gateway does itself.
 */
let env: IsolatedEnv;
let app: FastifyInstance;
let runtime: Runtime;
let base: string;

beforeAll(async () => {
  env = await createIsolatedEnv({ config: { RATE_LIMIT_LOGIN_PER_MIN: 1000 } });
  ({ app, runtime } = await runAll({ ...env.config, PORT: 0, REALTIME_PORT: 0, LOG_LEVEL: 'silent' }));
  const address = app.server.address();
  base = `127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});
afterAll(async () => {
  await app?.close();
  await runtime?.close();
  await env?.close();
});

async function signedUp(confirmed: boolean) {
  const email = uniqueEmail('socket');
  const res = await http(`http://${base}`, 'POST', '/v1/auth/register', {
    body: { first_name: 'Ana', last_name: 'Lee', email, password: PASSWORD, accept_terms: true },
  });
  expect(res.status).toBe(201);
  if (confirmed) await env.sql.query('update accounts set email_confirmed_at = now() where email = $1', [email]);
  return res.body as { access_token: string; session_id: string };
}

describe('/v1/ws through the one-base-URL server', () => {
  it('refuses with the same envelopes as the gateway: 403 email_not_confirmed, 401 expired, 404 elsewhere', async () => {
    const unconfirmed = await signedUp(false);
    expect(envelopeOf(await refusal(`ws://${base}/v1/ws?access_token=${unconfirmed.access_token}`))).toMatchObject({
      status: 403,
      code: 'email_not_confirmed',
    });
    const confirmed = await signedUp(true);
    const { rows } = await env.sql.query('select account_id from sessions where id = $1', [confirmed.session_id]);
    const { token } = await tokenExpiringIn(
      env.config,
      { accountId: rows[0].account_id, sessionId: confirmed.session_id },
      -5,
    );
    expect(envelopeOf(await refusal(`ws://${base}/v1/ws?access_token=${token}`))).toEqual({
      status: 401,
      code: 'unauthorized',
      details: { reason: 'expired' },
    });
    expect(envelopeOf(await refusal(`ws://${base}/v1/ws`))).toMatchObject({
      status: 401,
      details: { reason: 'missing' },
    });
    expect(envelopeOf(await refusal(`ws://${base}/v1/wss?access_token=${confirmed.access_token}`))).toMatchObject({
      status: 404,
      code: 'not_found',
    });
  });
});
