import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

/** Files worth compressing: scripts, styles and data (images and fonts are compressed already). */
const COMPRESSIBLE = /\.(m?js|css|json|svg|html)$/;

/**
 * Writes a Brotli (`.br`) and a gzip (`.gz`) copy beside each compressible file of `assets/`, once
 * at build time, so that the server sends MapLibre (1.1 MB) and the offline map data (0.75 MB)
 * compressed without compressing on every request.
 */
export function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'guest-web-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async writeBundle() {
      const dir = path.join(outDir, 'assets');
      for (const name of await readdir(dir)) {
        if (!COMPRESSIBLE.test(name)) continue;
        const body = await readFile(path.join(dir, name));
        if (body.length < 1024) continue;
        const br = brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 9 } });
        await writeFile(path.join(dir, `${name}.br`), br);
        await writeFile(path.join(dir, `${name}.gz`), gzipSync(body, { level: 9 }));
      }
    },
  };
}
