import { readFileSync } from 'node:fs';
import path from 'node:path';
import { loadConfigOrExit, repoRoot, type Config } from '@guest/config';
import { createRuntime, type Runtime } from '@guest/runtime';
import type { FastifyInstance } from 'fastify';
import { createServer, type AppPlugin } from './server.ts';
import { installGracefulShutdown } from './shutdown.ts';

export function packageVersion(): string {
  return (JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { version: string }).version;
}

/** Entry point of every HTTP process: validated config, real services, listen, graceful stop. */
export async function runHttpServer(
  apps: AppPlugin[],
  opts: {
    config?: Config;
    port?: number;
    /** Runs before listening: start companions (the socket gateway) and add their close hooks. */
    prepare?: (app: FastifyInstance, runtime: Runtime) => Promise<void>;
  } = {},
) {
  const config = opts.config ?? loadConfigOrExit();
  const runtime = createRuntime(config);
  const app = await createServer({ runtime, apps, version: packageVersion() });
  if (opts.prepare) await opts.prepare(app, runtime);
  installGracefulShutdown(app, () => runtime.close(), config.SHUTDOWN_GRACE_MS);
  await app.listen({ host: config.HOST, port: opts.port ?? config.PORT });
  return { app, runtime };
}
