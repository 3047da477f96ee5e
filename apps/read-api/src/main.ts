import { runHttpServer } from '@guest/http-kit';
import { readApi } from './app.ts';

await runHttpServer([readApi]);
