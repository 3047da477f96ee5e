import type { FastifyInstance } from 'fastify';
import type { AppPlugin } from '@guest/http-kit';
import { createJobs } from '@guest/jobs';
import { mailQueueSpec, startMailWorker, transportFromConfig } from '@guest/mail';
import type { WriteDeps } from './deps.ts';
import { createWriteServices, type WriteRouteOptions } from './services.ts';
import { WorkPool } from './work/pool.ts';
import { passwordResetQueueSpec, startPasswordResetWorker } from './auth/password-reset-job.ts';
import { lockoutNoticeQueueSpec, startLockoutNoticeWorker } from './auth/lockout-notice-job.ts';
import emailAvailability from './routes/v1/auth/email-availability.ts';
import captcha from './routes/v1/auth/captcha.ts';
import register from './routes/v1/auth/register.ts';
import confirmEmail from './routes/v1/auth/confirm-email.ts';
import resendConfirmation from './routes/v1/auth/resend-confirmation.ts';
import login from './routes/v1/auth/login.ts';
import refresh from './routes/v1/auth/refresh.ts';
import wsTicket from './routes/v1/auth/ws-ticket.ts';
import logout from './routes/v1/auth/logout.ts';
import logoutAll from './routes/v1/auth/logout-all.ts';
import authSessions from './routes/v1/auth/sessions.ts';
import passwordResetRequest from './routes/v1/auth/password-reset/request.ts';
import passwordResetConfirm from './routes/v1/auth/password-reset/confirm.ts';
import passwordChange from './routes/v1/auth/password/change.ts';
import deleteRequest from './routes/v1/auth/delete-request.ts';
import deleteConfirm from './routes/v1/auth/delete-confirm.ts';
import meSessions from './routes/v1/me/sessions/index.ts';
import meSession from './routes/v1/me/sessions/[session_id].ts';
import me from './routes/v1/me/index.ts';
import meBadges from './routes/v1/me/badges.ts';
import meAvatar from './routes/v1/me/avatar.ts';
import meSearchFilters from './routes/v1/me/search-filters.ts';
import meEmailPrefs from './routes/v1/me/email-prefs.ts';
import mePushPrefs from './routes/v1/me/push-prefs.ts';
import meFavorites from './routes/v1/me/favorites/index.ts';
import meFavorite from './routes/v1/me/favorites/[listing_id].ts';
import meTransactions from './routes/v1/me/transactions/index.ts';
import meTransaction from './routes/v1/me/transactions/[tx_id].ts';
import mediaTicket from './routes/v1/media/[media_id]/ticket.ts';
import mediaFile from './routes/v1/media/[media_id].ts';
import avatarFile from './routes/v1/media/avatars/[file].ts';
import devices from './routes/v1/devices.ts';
import notificationsRead from './routes/v1/notifications/read.ts';
import dialogRead from './routes/v1/chats/dialogs/[id]/read.ts';
import assistantRead from './routes/v1/assistant/read.ts';

/** Every route module of the write API; each is registered the same way, with the services. */
const routes = [
  // Accounts, sessions and tokens (spec 5).
  emailAvailability,
  captcha,
  register,
  confirmEmail,
  resendConfirmation,
  login,
  refresh,
  wsTicket,
  logout,
  logoutAll,
  authSessions,
  passwordResetRequest,
  passwordResetConfirm,
  passwordChange,
  deleteRequest,
  deleteConfirm,
  meSessions,
  meSession,
  // Profile, preferences, favorites, transactions, badges and private files (spec 4.2, 4.3, 6.2).
  me,
  meBadges,
  meAvatar,
  meSearchFilters,
  meEmailPrefs,
  mePushPrefs,
  meFavorites,
  meFavorite,
  meTransactions,
  meTransaction,
  mediaTicket,
  mediaFile,
  avatarFile,
  devices,
  notificationsRead,
  dialogRead,
  assistantRead,
];

/**
 * The write API: accounts, sessions, profile and files, owned in Postgres. The services are made
 * once here from the runtime; route modules live under `routes/` in files that mirror their URL
 * paths (`[param]` for a path parameter) and reach the services only through their options.
 */
async function writeApiPlugin(app: FastifyInstance): Promise<void> {
  const { config, database, redis, storage, clock } = app.runtime;

  // Mail leaves through the outbox and a pg-boss queue; the queue must exist before any
  // request can send to it.
  const jobs = createJobs({ connectionString: config.DATABASE_URL, schema: config.JOBS_SCHEMA, log: app.log });
  await jobs.start([mailQueueSpec, passwordResetQueueSpec, lockoutNoticeQueueSpec]);
  const transport = transportFromConfig(config);
  const work = {
    images: new WorkPool({
      size: config.IMAGE_POOL_SIZE,
      queueMax: config.IMAGE_POOL_QUEUE,
      retryAfterS: config.UNAVAILABLE_RETRY_AFTER_S,
    }),
    passwords: new WorkPool({
      size: config.PASSWORD_POOL_SIZE,
      queueMax: config.PASSWORD_POOL_QUEUE,
      retryAfterS: config.UNAVAILABLE_RETRY_AFTER_S,
    }),
  };
  // Threads start in the background: the server answers meanwhile, the first upload finds them ready.
  for (const pool of [work.images, work.passwords]) {
    pool
      .warm()
      .catch((err: unknown) => app.log.warn({ err }, 'a work thread did not start; it is retried on first use'));
  }

  const deps: WriteDeps = {
    config,
    database,
    redis,
    storage,
    clock,
    jobs,
    cursors: app.cursors,
    rateLimiter: app.rateLimiter,
    work,
    log: app.log,
  };
  if (config.MAIL_WORKER) {
    await startMailWorker(jobs, database.db, transport);
    await startPasswordResetWorker(deps);
    await startLockoutNoticeWorker(deps);
  }
  app.addHook('onClose', async () => {
    await jobs.stop();
    await transport.close();
    await Promise.all([work.images.close(), work.passwords.close()]);
  });

  const options: WriteRouteOptions = { services: createWriteServices(deps) };
  for (const route of routes) await app.register(route, options);
}

export const writeApi: AppPlugin = {
  name: 'write-api',
  plugin: writeApiPlugin,
  tags: [
    { name: 'auth', description: 'Accounts, sign-in, tokens and sessions.' },
    { name: 'me', description: 'The signed-in guest: profile, preferences, favorites, transactions, devices.' },
    { name: 'media', description: 'Private files, fetched with a short-lived ticket.' },
    { name: 'badges', description: 'Unread counters and marking things read.' },
  ],
};
