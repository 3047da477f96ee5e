import { afterAll, beforeAll, expect, it } from 'vitest';
import { transportFromConfig } from '@guest/mail';
import type { TestApp } from '../../support/test-app.ts';
import { register, startAuthApp } from './support.ts';
import { startSmtpSink } from './smtp-sink.ts';
import { eventually } from '../../support/eventually.ts';

let t: TestApp;
let sink: Awaited<ReturnType<typeof startSmtpSink>>;
beforeAll(async () => {
  sink = await startSmtpSink();
  t = await startAuthApp({ SMTP_URL: sink.url, MAIL_FROM: 'Guest API <no-reply@guest.example>' });
});
afterAll(async () => {
  await t?.close();
  await sink?.close();
});

it('with SMTP_URL set, account mail goes out over SMTP with the link and the outbox row is marked sent', async () => {
  const u = await register(t);
  await eventually('a message at the SMTP sink', () => sink.messages.length, { timeoutMs: 15_000 });
  expect(sink.messages).toHaveLength(1);
  const m = sink.messages[0]!;
  expect(m.to).toEqual([`<${u.email}>`]);
  expect(m.from).toContain('no-reply@guest.example');
  expect(m.data).toMatch(/Subject: Confirm your email address/);
  expect(m.data.replace(/=\r\n/g, '')).toMatch(
    /confirm-email\?token=3D[A-Za-z0-9_-]+|confirm-email\?token=[A-Za-z0-9_-]+/,
  );
  // The relay has the message once its DATA is accepted; the sender marks the row after that.
  const sentAt = await eventually('the outbox row marked sent', async () => {
    const { rows } = await t.sql.query('select sent_at from mail_outbox where "to" = $1', [u.email]);
    return rows[0]?.sent_at ?? null;
  });
  expect(sentAt).toBeInstanceOf(Date);
});

it('production refuses to start without an SMTP relay instead of keeping mail on local disk', () => {
  expect(() => transportFromConfig({ APP_ENV: 'production', MAILBOX_DIR: '/tmp/x', MAIL_FROM: 'x@y' })).toThrow(
    /SMTP_URL/,
  );
});
