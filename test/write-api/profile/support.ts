import { Redis } from 'ioredis';
import { accountChannel, type SocketMessage } from '@guest/realtime-bus';
import type { TestApp } from '../../support/test-app.ts';
import { confirmEmail, register, startAuthApp, type Registered } from '../auth/support.ts';

export { startAuthApp as startProfileApp };

export interface Guest extends Registered {
  token: string;
}

/** A guest signed in over the real endpoints: register, then (unless told) confirm the email from the mailbox. */
export async function signedIn(
  t: TestApp,
  opts: { confirmed?: boolean; over?: Record<string, unknown> } = {},
): Promise<Guest> {
  const reg = await register(t, opts.over);
  if (opts.confirmed !== false) await confirmEmail(t, reg.email);
  return { ...reg, token: reg.tokens.access_token };
}

/** Listens on an account's socket channel in real Redis, as the realtime gateway does. */
export async function listenToAccount(t: TestApp, accountId: string) {
  const sub = new Redis(t.config.REDIS_URL);
  const messages: SocketMessage[] = [];
  const waiters: Array<() => void> = [];
  sub.on('message', (_channel, raw) => {
    messages.push(JSON.parse(raw) as SocketMessage);
    waiters.splice(0).forEach((w) => w());
  });
  await sub.subscribe(accountChannel(t.config.REDIS_KEY_PREFIX, accountId));
  return {
    messages,
    /** Resolves once a message of `type` has arrived (the test's own timeout bounds the wait). */
    async next(type: string): Promise<SocketMessage> {
      return (await this.all(type, 1))[0]!;
    },
    /**
     * Resolves with the messages of `type` once `count` of them have arrived: a push travels through
     * Redis, so it may land after the HTTP answer of the call that sent it.
     */
    async all(type: string, count: number): Promise<SocketMessage[]> {
      for (;;) {
        const found = messages.filter((m) => m.type === type);
        if (found.length >= count) return found;
        await new Promise<void>((r) => waiters.push(r));
      }
    },
    close: () => sub.quit(),
  };
}
