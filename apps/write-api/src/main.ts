import { runHttpServer } from '@guest/http-kit';
import { writeApi } from './app.ts';

await runHttpServer([writeApi]);
