import { runHttpServer } from '@guest/http-kit';
import { allApps } from './app.ts';

await runHttpServer(allApps);
