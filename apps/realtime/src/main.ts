import { loadConfigOrExit } from '@guest/config';
import { createRuntime } from '@guest/runtime';
import { startGateway, TransportListenError, TransportLoadError } from './gateway.ts';
import { socketAuthenticator } from './socket-auth.ts';

const config = loadConfigOrExit();
const runtime = createRuntime(config);
let gateway;
try {
  gateway = await startGateway({
    config,
    authenticate: socketAuthenticator(runtime),
    port: config.REALTIME_PORT,
    clock: runtime.clock,
  });
} catch (err) {
  if (!(err instanceof TransportLoadError || err instanceof TransportListenError)) throw err;
  // No silent half-start: without its transport or its port the gateway serves nothing.
  process.stderr.write(`realtime gateway did not start: ${err.message} (REALTIME_PORT=${config.REALTIME_PORT})\n`);
  await runtime.close().catch(() => {});
  process.exit(1);
}
const started = gateway;
process.stdout.write(
  `realtime gateway on ${config.HOST}:${started.port} (/v1/ws, ${started.transport}, Node.js ${process.version})\n`,
);
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    void started
      .close()
      .then(() => runtime.close())
      .then(() => process.exit(0));
  });
}
