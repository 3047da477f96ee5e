import { eq } from 'drizzle-orm';
import { loadConfigOrExit } from '@guest/config';
import { createDatabase, schema } from '@guest/db';
import { systemClock } from '@guest/runtime';
import { seedDemoTransactions } from './seed.ts';

/**
 * `npx tsx apps/write-api/src/transactions/seed-cli.ts <email>`: adds the demo payments and
 * refunds to an existing account, for trying `/v1/me/transactions` by hand.
 */
const email = process.argv[2]?.toLowerCase();
if (!email) {
  process.stderr.write('usage: seed-cli.ts <email of an existing account>\n');
  process.exit(64);
}
const config = loadConfigOrExit();
const database = createDatabase(config.DATABASE_URL, 1);
try {
  const [account] = await database.db
    .select({ id: schema.accounts.id })
    .from(schema.accounts)
    .where(eq(schema.accounts.email, email));
  if (!account) {
    process.stderr.write(`no account with email ${email}\n`);
    process.exitCode = 1;
  } else {
    const ids = await seedDemoTransactions(database.db, account.id, systemClock.now());
    process.stdout.write(`added ${ids.length} demo transactions: ${ids.join(', ')}\n`);
  }
} finally {
  await database.close();
}
