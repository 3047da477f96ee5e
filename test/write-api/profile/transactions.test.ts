import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoTransactions } from '@guest/write-api/demo';
import type { TestApp } from '../../support/test-app.ts';
import { expectEnvelope, http } from '../../support/http.ts';
import { signedIn, startProfileApp, type Guest } from './support.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startProfileApp();
});
afterAll(async () => t?.close());

const list = (g: Guest, q = '') => http(t.url, 'GET', `/v1/me/transactions${q}`, { token: g.token });

/** Start of the current month in Bangkok: operations around it fall in this month or the last. */
const monthStart = () => DateTime.now().setZone('Asia/Bangkok').startOf('month');

async function insertTx(g: Guest, id: string, kind: string, state: string, amount: number, at: Date, currency = 'THB') {
  await t.sql.query(
    `insert into transactions (id, account_id, kind, state, amount_minor, currency, order_amount_minor, order_currency,
                               exchange_rate, method, bank_operation_id, target, timezone, occurred_at)
     values ($1, $2, $3, $4, $5, $6, $5, $6, 1, 'card', 'OP-' || $1, '{"type":"booking","id":"bk_1","title":"Villa"}',
             'Asia/Bangkok', $7)`,
    [id, g.accountId, kind, state, amount, currency, at],
  );
}

describe('GET /v1/me/transactions', () => {
  it("lists the demo operations newest first, amounts in minor units, times in the place's zone", async () => {
    const g = await signedIn(t);
    const ids = await seedDemoTransactions(t.runtime.database.db, g.accountId, t.runtime.clock.now());
    const res = await list(g);
    expect(res.status).toBe(200);
    expect(res.body.items.map((i: any) => i.id).sort()).toEqual([...ids].sort());
    const times = res.body.items.map((i: any) => Date.parse(i.occurred_at));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    for (const item of res.body.items) {
      expect(item.id).toMatch(item.kind === 'booking_payment' ? /^pay_/ : /^ref_/);
      expect(item.occurred_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+07:00$/);
      expect(item.timezone).toBe('Asia/Bangkok');
      expect(Number.isInteger(item.amount_minor)).toBe(true);
      expect(item.target).toMatchObject({ type: 'booking', id: expect.stringMatching(/^bk_/) });
    }
    const refund = res.body.items.find((i: any) => i.kind === 'booking_refund');
    expect(refund).toMatchObject({
      state: 'paid',
      currency: 'THB',
      order_currency: 'USD',
      exchange_rate: '35.6',
    });
    expect(refund.refund_of).toMatch(/^pay_/);
    expect(res.body.has_more).toBe(false);
    expect(res.body.next_cursor).toBeNull();
  });

  it('filters by type and pages with a cursor that belongs to its filter', async () => {
    const g = await signedIn(t);
    const base = monthStart().toJSDate().getTime();
    for (let i = 0; i < 5; i++)
      await insertTx(g, `pay_p${i}`, 'booking_payment', 'paid', 1000 + i, new Date(base + i * 60_000));
    await insertTx(g, 'ref_r0', 'booking_refund', 'paid', 500, new Date(base + 10 * 60_000));

    expect((await list(g, '?type=refunds')).body.items.map((i: any) => i.id)).toEqual(['ref_r0']);
    const ids: string[] = [];
    let cursor: string | null = null;
    do {
      const res = await list(g, `?type=payments&limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      expect(res.status).toBe(200);
      ids.push(...res.body.items.map((i: any) => i.id));
      cursor = res.body.next_cursor;
    } while (cursor);
    expect(ids).toEqual(['pay_p4', 'pay_p3', 'pay_p2', 'pay_p1', 'pay_p0']);
    expect((await list(g, '?type=all')).body.items.map((i: any) => i.id)[0]).toBe('ref_r0');

    const page = await list(g, '?type=payments&limit=2');
    const e = expectEnvelope(
      await list(g, `?type=refunds&cursor=${encodeURIComponent(page.body.next_cursor)}`),
      400,
      'validation_error',
    );
    expect(e.details.field).toBe('cursor');
  });

  it('summary totals this month’s completed payments and refunds per currency, in the given zone', async () => {
    const g = await signedIn(t);
    const start = monthStart();
    const inMonth = start.plus({ minutes: 1 }).toJSDate();
    await insertTx(g, 'pay_a', 'booking_payment', 'paid', 100_000, inMonth);
    await insertTx(g, 'pay_b', 'booking_payment', 'paid', 50_000, start.plus({ minutes: 2 }).toJSDate());
    await insertTx(g, 'pay_usd', 'booking_payment', 'paid', 2_500, start.plus({ minutes: 3 }).toJSDate(), 'USD');
    await insertTx(g, 'pay_failed', 'booking_payment', 'failed', 999_999, inMonth);
    await insertTx(g, 'pay_pending', 'booking_payment', 'pending', 888_888, inMonth);
    await insertTx(g, 'pay_last_month', 'booking_payment', 'paid', 777_777, start.minus({ minutes: 1 }).toJSDate());
    await insertTx(g, 'ref_a', 'booking_refund', 'paid', 20_000, start.plus({ minutes: 4 }).toJSDate());
    await insertTx(g, 'ref_pending', 'booking_refund', 'pending', 30_000, inMonth);
    const other = await signedIn(t);
    await insertTx(other, 'pay_other', 'booking_payment', 'paid', 123_456, inMonth);

    const res = await list(g, '?limit=1');
    expect(res.body.summary).toEqual({
      month: start.toFormat('yyyy-MM'),
      timezone: 'Asia/Bangkok',
      paid: [
        { currency: 'THB', amount_minor: 150_000 },
        { currency: 'USD', amount_minor: 2_500 },
      ],
      refunded: [{ currency: 'THB', amount_minor: 20_000 }],
    });
    // The summary does not depend on the page or the filter.
    expect((await list(g, '?type=refunds')).body.summary).toEqual(res.body.summary);
    // The first minutes of a Bangkok month are still the previous month in UTC.
    const utc = await list(g, '?timezone=UTC');
    expect(utc.body.summary.timezone).toBe('UTC');
    expect(utc.body.summary.paid.find((p: any) => p.currency === 'THB')?.amount_minor).not.toBe(150_000);
  });

  it('refuses limit outside 1 to 100, an unknown type and a zone that is not IANA with 400 naming it', async () => {
    const g = await signedIn(t);
    expect((await list(g, '?limit=100')).status).toBe(200);
    for (const [q, field] of [
      ['?limit=0', 'limit'],
      ['?limit=101', 'limit'],
      ['?type=bonus', 'type'],
      ['?timezone=%2B07%3A00', 'timezone'],
      ['?timezone=Mars/Base', 'timezone'],
    ]) {
      const e = expectEnvelope(await list(g, q), 400, 'validation_error');
      expect(e.details.field, q).toBe(field);
    }
  });

  it('needs a confirmed email', async () => {
    const u = await signedIn(t, { confirmed: false });
    expectEnvelope(await list(u), 403, 'email_not_confirmed');
    expectEnvelope(await http(t.url, 'GET', '/v1/me/transactions'), 401, 'unauthorized');
  });
});

describe('GET /v1/me/transactions/{tx_id}', () => {
  it("returns one of the caller's operations, and 404 for another person's or an unknown id", async () => {
    const g = await signedIn(t);
    const other = await signedIn(t);
    const [id] = await seedDemoTransactions(t.runtime.database.db, g.accountId, t.runtime.clock.now());
    const mine = await http(t.url, 'GET', `/v1/me/transactions/${id}`, { token: g.token });
    expect(mine.status).toBe(200);
    expect(mine.body.id).toBe(id);
    const fromList = (await list(g)).body.items.find((i: any) => i.id === id);
    expect(mine.body).toEqual(fromList);
    expectEnvelope(await http(t.url, 'GET', `/v1/me/transactions/${id}`, { token: other.token }), 404, 'not_found');
    expectEnvelope(await http(t.url, 'GET', '/v1/me/transactions/pay_nope', { token: g.token }), 404, 'not_found');
  });
});
