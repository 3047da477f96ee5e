import { loadConfigOrExit } from '@guest/config';
import { ensureDatabaseExists, runMigrations } from '@guest/db';

const config = loadConfigOrExit();
await ensureDatabaseExists(config.DATABASE_URL);
await runMigrations(config.DATABASE_URL);
process.stdout.write(`migrations applied to ${new URL(config.DATABASE_URL).pathname.slice(1)}\n`);
