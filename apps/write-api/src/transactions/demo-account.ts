import { schema, type Db } from '@guest/db';
import type { Config } from '@guest/config';
import { hashPassword } from '@guest/auth';
import { seedDemoTransactions } from './seed.ts';

/**
 * The account `npm run dev` prepares so that a new user can sign in at once and see the
 * signed-in side with data in it (transactions come from the payments side, outside this API).
 * Development only: a known password has no place anywhere else.
 */
export const DEMO_ACCOUNT = { email: 'demo@guest-api.test', password: 'sandy-beach-2026' } as const;

/**
 * Creates the demo account (email confirmed) with its demo payments and refunds; a no-op when it
 * exists, so every `npm run dev` after the first keeps what the user did with it.
 */
export async function ensureDemoAccount(
  db: Db,
  config: Pick<Config, 'ARGON2_MEMORY_KIB' | 'ARGON2_ITERATIONS' | 'ARGON2_PARALLELISM'>,
  now: Date,
): Promise<{ created: boolean; transactions: number }> {
  const passwordHash = await hashPassword(config, DEMO_ACCOUNT.password);
  return db.transaction(async (dbTx) => {
    const [account] = await dbTx
      .insert(schema.accounts)
      .values({
        email: DEMO_ACCOUNT.email,
        passwordHash,
        firstName: 'Demo',
        lastName: 'Guest',
        termsAcceptedAt: now,
        emailConfirmedAt: now,
      })
      .onConflictDoNothing({ target: schema.accounts.email })
      .returning({ id: schema.accounts.id });
    if (!account) return { created: false, transactions: 0 };
    const ids = await seedDemoTransactions(dbTx, account.id, now);
    return { created: true, transactions: ids.length };
  });
}
