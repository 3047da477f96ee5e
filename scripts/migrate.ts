import pino from 'pino';
import { loadConfigOrExit } from '@guest/config';
import { ensureDatabaseExists, runMigrations } from '@guest/db';
import { upgradeFromV10 } from '@guest/jobs';

const config = loadConfigOrExit();
await ensureDatabaseExists(config.DATABASE_URL);
await runMigrations(config.DATABASE_URL);
// Every process upgrades a pg-boss 10 job schema when it starts; doing it here lets a deployment
// move it once, before any new process starts (the old ones must be stopped first).
const jobs = await upgradeFromV10({
  connectionString: config.DATABASE_URL,
  schema: config.JOBS_SCHEMA,
  log: pino({ name: 'migrate', level: config.LOG_LEVEL }),
});
process.stdout.write(
  `migrations applied to ${new URL(config.DATABASE_URL).pathname.slice(1)}` +
    `${jobs === 'upgraded' ? `; pg-boss schema "${config.JOBS_SCHEMA}" upgraded from 10 to 12` : ''}\n`,
);
