// Builds the package `npm pack` ships (`npm run build -w @guest/client`; `prepack` runs it):
//
// - dist/esm: ES modules and their declarations, one file per source file (tsc);
// - dist/cjs: one CommonJS bundle (esbuild) and the same declarations as `.d.cts`;
// - dist/openapi.json: the document the types were generated from.
//
// Plain JavaScript on purpose: it runs on the machine's Node.js (20 and later) without a loader.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const dist = path.join(here, 'dist');
const require = createRequire(import.meta.url);

/** Every file under `dir`, relative paths. */
function files(dir, base = dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(path.join(dir, e.name), base) : [path.relative(base, path.join(dir, e.name))],
  );
}

/** Rewrites the relative specifiers of a declaration file (`'./schema.ts'`) to `ext`. */
const relinked = (text, ext) => text.replace(/(from\s+|import\()(['"])(\.\.?\/[^'"]+?)\.ts\2/g, `$1$2$3${ext}$2`);

rmSync(dist, { recursive: true, force: true });

// ES modules: tsc writes `.js` for the sources' `.ts` imports (rewriteRelativeImportExtensions),
// but leaves them in declarations, where `.ts` would need allowImportingTsExtensions: relinked.
execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', path.join(here, 'tsconfig.build.json')], {
  stdio: 'inherit',
});
const esm = path.join(dist, 'esm');
for (const file of files(esm).filter((f) => f.endsWith('.d.ts'))) {
  const full = path.join(esm, file);
  writeFileSync(full, relinked(readFileSync(full, 'utf8'), '.js'));
}

// CommonJS: one bundle (openapi-fetch stays a dependency), and declarations of its own kind so
// that `require` users get CommonJS types.
const cjs = path.join(dist, 'cjs');
const esbuild = await import('esbuild');
await esbuild.build({
  entryPoints: [path.join(here, 'src', 'index.ts')],
  outfile: path.join(cjs, 'index.cjs'),
  bundle: true,
  format: 'cjs',
  platform: 'neutral',
  target: 'es2022',
  external: ['openapi-fetch'],
  sourcemap: true,
  logLevel: 'warning',
});
for (const file of files(esm).filter((f) => f.endsWith('.d.ts'))) {
  const out = path.join(cjs, file.replace(/\.d\.ts$/, '.d.cts'));
  mkdirSync(path.dirname(out), { recursive: true });
  const text = readFileSync(path.join(esm, file), 'utf8')
    .replace(/(from\s+|import\()(['"])(\.\.?\/[^'"]+?)\.js\2/g, '$1$2$3.cjs$2')
    .replace(/\n\/\/# sourceMappingURL=.*\n?$/, '\n');
  writeFileSync(out, text);
}

copyFileSync(path.join(here, 'src', 'generated', 'openapi.json'), path.join(dist, 'openapi.json'));
