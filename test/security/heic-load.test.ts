import { afterAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/test-app.ts';
import { signedIn, startProfileApp, type Guest } from '../write-api/profile/support.ts';
import { readFixture } from '../write-api/profile/images.ts';

// Issue 32 point 5: HEIC decoding held the event loop. A 9.6 KB HEIC of 7000x5600 (one colour,
// made with heif-enc from Debian's libheif-examples: test/fixtures/images/heic-7000x5600.heic)
// took 0.7-2.0 s of the main thread, and 4 such uploads in flight pushed /livez from 2.8 ms to a
// median of 0.40 s (max 1.65 s). The attack again: 4 uploads at once while /livez is asked every
// 10 ms until the last upload is answered. The server runs in this process, so a blocked event
// loop delays the probes exactly as it would delay any client. Prints its figures as
// "issue 32 point 5, ...".

const apps: TestApp[] = [];
afterAll(async () => {
  await Promise.all(apps.map((a) => a.close()));
});

async function start(config: Record<string, string | number | boolean> = {}) {
  const t = await startProfileApp({ MAX_UPLOAD_MB: 1, ...config });
  apps.push(t);
  return t;
}

async function upload(t: TestApp, g: Guest, bytes: Buffer) {
  const form = new FormData();
  form.append('file', new Blob([bytes], { type: 'image/heic' }), 'IMG_7000.HEIC');
  const res = await fetch(`${t.url}/v1/me/avatar`, {
    method: 'PUT',
    body: form,
    headers: { authorization: `Bearer ${g.token}` },
  });
  const text = await res.text();
  return { status: res.status, retryAfter: res.headers.get('retry-after'), body: text ? JSON.parse(text) : null };
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

/** /livez asked every 10 ms until `done` settles: the latencies in ms, sorted, and the peak RSS. */
async function probeLivez(t: TestApp, done: Promise<unknown>) {
  let running = true;
  const latencies: number[] = [];
  let peakRss = process.memoryUsage().rss;
  const probing = (async () => {
    while (running) {
      const s = performance.now();
      await (await fetch(`${t.url}/livez`)).text();
      latencies.push(performance.now() - s);
      peakRss = Math.max(peakRss, process.memoryUsage().rss);
      await new Promise((r) => setTimeout(r, 10));
    }
  })();
  await done.finally(() => {
    running = false;
  });
  await probing;
  return { sorted: latencies.sort((a, b) => a - b), peakRssMiB: Math.round(peakRss / 1_048_576) };
}

/**
 * 4 uploads (or `n`) in flight from 4 guests, /livez probed meanwhile; and the same probing for
 * 3 s with nothing in flight first, for what the machine gives an idle server (the tests share
 * two cores with the database, the engine and other test files).
 */
async function underLoad(t: TestApp, n = 4) {
  const heic = await readFixture('heic-7000x5600.heic');
  const guests = await Promise.all(Array.from({ length: n }, () => signedIn(t)));
  const idle = await probeLivez(t, new Promise((r) => setTimeout(r, 3000)));
  const started = performance.now();
  const uploads = Promise.all(guests.map((g) => upload(t, g, heic)));
  const load = await probeLivez(t, uploads);
  const answers = await uploads;
  const tookMs = performance.now() - started;
  const sorted = load.sorted;
  return {
    answers,
    tookMs,
    probes: sorted.length,
    idleP99: percentile(idle.sorted, 99),
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    max: sorted.at(-1)!,
    peakRssMiB: load.peakRssMiB,
    /** The 50 ms, above what this machine gives an idle server right now. */
    bound: 50 + percentile(idle.sorted, 99),
  };
}

const describeFigures = (what: string, r: Awaited<ReturnType<typeof underLoad>>) =>
  `issue 32 point 5, ${what}: statuses ${r.answers.map((a) => a.status).join(', ')} in ${Math.round(r.tookMs)} ms; ` +
  `/livez idle p99 ${r.idleP99.toFixed(1)} ms, under load p50 ${r.p50.toFixed(1)} ms, ` +
  `p99 ${r.p99.toFixed(1)} ms, max ${r.max.toFixed(1)} ms over ${r.probes} probes; peak RSS ${r.peakRssMiB} MiB`;

describe('HEIC decoding never holds the event loop (issue 32 point 5)', () => {
  it(
    '4 uploads of a 7000x5600 HEIC decoded at once: /livez p99 stays under 50 ms (above idle)',
    { timeout: 180_000 },
    async () => {
      // The HEIC cap raised to let them through: the decoding itself is what is measured.
      const t = await start({ MAX_HEIC_MEGAPIXELS: 40 });
      const r = await underLoad(t);
      console.info(describeFigures('4 decoded in the pool', r));
      expect(r.answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
      expect(r.probes).toBeGreaterThanOrEqual(10);
      expect(r.p99).toBeLessThan(r.bound);
    },
  );

  it(
    'at the default HEIC cap (24 MP) they are refused from their container dimensions',
    { timeout: 120_000 },
    async () => {
      const t = await start();
      expect(t.config.MAX_HEIC_MEGAPIXELS).toBe(24);
      const r = await underLoad(t);
      console.info(describeFigures('4 at the default cap', r));
      for (const a of r.answers) {
        expect(a.status).toBe(400);
        expect(a.body.error.details).toMatchObject({
          field: 'file',
          reason: 'too_many_pixels',
          width: 7000,
          height: 5600,
          max_megapixels: 24,
        });
      }
      // Refused before decoding: no work thread is held (its latency is printed above).
    },
  );

  it(
    'beyond the pool and its queue, an upload is refused at once with 503 and Retry-After',
    { timeout: 120_000 },
    async () => {
      const t = await start({ MAX_HEIC_MEGAPIXELS: 40, IMAGE_POOL_SIZE: 1, IMAGE_POOL_QUEUE: 1 });
      const r = await underLoad(t);
      console.info(describeFigures('pool of 1 with 1 waiting', r));
      const statuses = r.answers.map((a) => a.status).sort();
      expect(statuses).toEqual([200, 200, 503, 503]);
      for (const a of r.answers.filter((x) => x.status === 503)) {
        expect(a.body.error).toMatchObject({ code: 'unavailable', details: { reason: 'busy' } });
        expect(Number(a.retryAfter)).toBe(t.config.UNAVAILABLE_RETRY_AFTER_S);
      }
      // The point here is the refusal; the latency under decoding is the first test's.
    },
  );
});
