import type { FastifyInstance } from 'fastify';

/**
 * SIGTERM/SIGINT: stop accepting, let in-flight requests finish (up to `graceMs`), close idle
 * keep-alive connections, then release pools and exit.
 */
export function installGracefulShutdown(app: FastifyInstance, closeRest: () => Promise<void>, graceMs: number): void {
  let shuttingDown = false;
  const stop = async (signal: string) => {
    if (shuttingDown) return;
    shuttingDown = true;
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => {
      app.log.error('in-flight requests did not finish in time; exiting');
      process.exit(1);
    }, graceMs);
    force.unref();
    try {
      await app.close();
      await closeRest();
      process.exit(0);
    } catch (err) {
      app.log.error({ err }, 'error during shutdown');
      process.exit(1);
    }
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));
}
