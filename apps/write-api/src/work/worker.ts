import { parentPort } from 'node:worker_threads';
import sharp from 'sharp';
import { perform, type WorkRequest } from './tasks.ts';

// One task holds one core: libvips would otherwise spread a large resize over every core and
// take the event loop's share too. (A process-wide setting of libvips: the main thread's own
// small drawings, the captcha's, do not need more.)
sharp.concurrency(1);

/**
 * One thread of the write API's work pool (`pool.ts`): one task at a time, its answer posted back
 * (an image's bytes moved, not copied).
 */
parentPort!.on('message', (task: WorkRequest) => {
  perform(task).then(
    (value) => {
      const transfer =
        value && typeof value === 'object' && 'data' in value && value.data instanceof Uint8Array
          ? [value.data.buffer as ArrayBuffer]
          : [];
      parentPort!.postMessage({ ok: true, value }, transfer);
    },
    (err: unknown) => parentPort!.postMessage({ ok: false, error: err instanceof Error ? err.message : String(err) }),
  );
});
