import { readFileSync } from 'node:fs';
import path from 'node:path';
import { loadConfigOrExit, repoRoot, type Config } from '@guest/config';
import { createRuntime, type Runtime } from '@guest/runtime';
import type { FastifyInstance, FastifyListenOptions } from 'fastify';
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
  // Fastify hands its listen options to Node's `server.listen`, which knows `reusePort` (Linux,
  // Node.js 22.12 and later); Fastify's own type does not list it yet.
  const listen: FastifyListenOptions & { reusePort?: boolean } = {
    host: config.HOST,
    port: opts.port ?? config.PORT,
    reusePort: config.HTTP_REUSE_PORT,
  };
  await app.listen(listen);
  return { app, runtime };
}
