import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNT, ensureDemoAccount } from '@guest/write-api/demo';
import type { TestApp } from '../../support/test-app.ts';
import { http } from '../../support/http.ts';
import { startProfileApp } from './support.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startProfileApp();
});
afterAll(async () => t?.close());

describe('the demo account npm run dev prepares', () => {
  it('signs in with the documented password and has its demo transactions; a second run changes nothing', async () => {
    const first = await ensureDemoAccount(t.runtime.database.db, t.config, t.runtime.clock.now());
    expect(first.created).toBe(true);
    expect(first.transactions).toBeGreaterThan(0);
    expect(await ensureDemoAccount(t.runtime.database.db, t.config, t.runtime.clock.now())).toEqual({
      created: false,
      transactions: 0,
    });

    const login = await http(t.url, 'POST', '/v1/auth/login', {
      body: { email: DEMO_ACCOUNT.email, password: DEMO_ACCOUNT.password },
    });
    expect(login.status).toBe(200);
    const token = login.body.access_token as string;
    const me = await http(t.url, 'GET', '/v1/me', { token });
    expect(me.body).toMatchObject({ email: DEMO_ACCOUNT.email, email_confirmed: true });
    // Transactions need a confirmed email: the demo account has one.
    const txs = await http(t.url, 'GET', '/v1/me/transactions?limit=100', { token });
    expect(txs.status).toBe(200);
    expect(txs.body.items).toHaveLength(first.transactions);
  });
});
