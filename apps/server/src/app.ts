import type { AppPlugin } from '@guest/http-kit';
import { writeApi } from '@guest/write-api';
import { readApi } from '@guest/read-api';

/** Every HTTP app of the API, served together behind one base URL. */
export const allApps: AppPlugin[] = [writeApi, readApi];
