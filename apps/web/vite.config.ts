import { fileURLToPath } from 'node:url';
import { defaultClientConditions, defineConfig } from 'vite';
import { budget } from './budget.ts';
import { precompress } from './precompress.ts';

/**
 * `npm run build -w @guest/web` writes `dist/`, which the one-base-URL server serves at `/`.
 * `npm run dev -w @guest/web` is Vite's dev server with hot reload, passing `/v1` (and the socket)
 * through to the API at `API_URL` (default http://127.0.0.1:8080, i.e. `npm run dev`).
 */
const api = process.env.API_URL ?? 'http://127.0.0.1:8080';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/',
  // The SDK's TypeScript sources (its `guest-source` export), not the package it builds for outside users.
  resolve: { conditions: ['guest-source', ...defaultClientConditions] },
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    chunkSizeWarningLimit: 1500,
    reportCompressedSize: false,
  },
  server: {
    port: Number(process.env.WEB_PORT ?? 5173),
    proxy: { '/v1': { target: api, ws: true, changeOrigin: false } },
  },
  plugins: [budget(), precompress()],
});
