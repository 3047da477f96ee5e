import { loadConfigOrExit } from '@guest/config';
import { createRuntime } from '@guest/runtime';
import { startGateway } from './gateway.ts';
import { socketAuthenticator } from './socket-auth.ts';

const config = loadConfigOrExit();
const runtime = createRuntime(config);
const gateway = await startGateway({ config, authenticate: socketAuthenticator(runtime), port: config.REALTIME_PORT });
process.stdout.write(`realtime gateway on ${config.HOST}:${gateway.port} (/v1/ws)\n`);
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    void gateway
      .close()
      .then(() => runtime.close())
      .then(() => process.exit(0));
  });
}
