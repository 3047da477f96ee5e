import { createReadStream } from 'node:fs';
import { mkdir, rename, rm, stat, writeFile, readFile } from 'node:fs/promises';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';

/** Where private files live. Local directory by default; an S3 bucket can sit behind the same. */
export interface FileStorage {
  put(key: string, data: Buffer): Promise<void>;
  get(key: string): Promise<{ stream: Readable; size: number } | null>;
  delete(key: string): Promise<void>;
  /** Writes, reads back and removes a probe file: proves the storage really works. */
  check(): Promise<void>;
}

const SAFE_KEY = /^[A-Za-z0-9][A-Za-z0-9._/-]{0,254}$/;

export function createLocalStorage(root: string): FileStorage {
  const resolve = (key: string) => {
    if (!SAFE_KEY.test(key) || key.split('/').includes('..')) throw new Error(`unsafe storage key: ${key}`);
    return path.join(root, key);
  };
  return {
    async put(key, data) {
      const file = resolve(key);
      await mkdir(path.dirname(file), { recursive: true });
      // Write to a temporary name and rename, so a reader never sees half a file.
      const tmp = `${file}.${randomUUID()}.tmp`;
      await writeFile(tmp, data);
      await rename(tmp, file);
    },
    async get(key) {
      const file = resolve(key);
      try {
        const st = await stat(file);
        return { stream: createReadStream(file), size: st.size };
      } catch (err: any) {
        if (err?.code === 'ENOENT') return null;
        throw err;
      }
    },
    async delete(key) {
      await rm(resolve(key), { force: true });
    },
    async check() {
      const key = `health-probe/${randomUUID()}`;
      const file = resolve(key);
      await mkdir(path.dirname(file), { recursive: true });
      await writeFile(file, 'ok');
      const back = await readFile(file, 'utf8');
      await rm(file, { force: true });
      if (back !== 'ok') throw new Error('storage read back different content');
    },
  };
}
