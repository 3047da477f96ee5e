import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { parseDemoPhotoName, type DemoPhoto } from '@guest/catalog';
import { demoPhotoSvg } from './scene.ts';

/**
 * The demo catalog's photos (`/demo-photos/v1/<name>.webp`), made from their name when first
 * asked for and kept on disk under `dir` (`DEMO_PHOTOS_DIR`), so the demo shows pictures without
 * internet and a picture is drawn once per machine. Several requests for one picture not yet made
 * wait for the same drawing.
 */
export function createDemoPhotosService({ dir }: { dir: string }) {
  const drawing = new Map<string, Promise<Buffer>>();

  async function draw(photo: DemoPhoto, file: string): Promise<Buffer> {
    const body = await sharp(Buffer.from(demoPhotoSvg(photo)))
      .webp({ quality: 78 })
      .toBuffer();
    // Written beside, then renamed: a reader never sees half a file, whoever draws it too.
    const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    try {
      await mkdir(path.dirname(file), { recursive: true });
      await writeFile(tmp, body);
      await rename(tmp, file);
    } catch {
      // A disk that cannot keep it (read-only, full) only costs drawing it again next time.
      await rm(tmp, { force: true });
    }
    return body;
  }

  return {
    /** The WebP bytes of the photo of this file name; null for a name that is no demo photo. */
    async photo(name: string): Promise<Buffer | null> {
      const photo = parseDemoPhotoName(name);
      if (!photo) return null;
      const file = path.join(dir, 'v1', name);
      const kept = await readFile(file).catch(() => null);
      if (kept) return kept;
      let job = drawing.get(name);
      if (!job) {
        job = draw(photo, file).finally(() => drawing.delete(name));
        drawing.set(name, job);
      }
      return job;
    },
  };
}

export type DemoPhotosService = ReturnType<typeof createDemoPhotosService>;
