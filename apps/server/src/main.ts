import { TransportListenError, TransportLoadError } from '@guest/realtime';
import { runAll } from './run-all.ts';

try {
  await runAll();
} catch (err) {
  if (!(err instanceof TransportLoadError || err instanceof TransportListenError)) throw err;
  process.stderr.write(`the server did not start: realtime gateway: ${err.message}\n`);
  process.exit(1);
}
