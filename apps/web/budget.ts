import { gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

/** The page's own JavaScript (everything but MapLibre's chunk and worker), gzip, at most this. */
export const OWN_JS_BUDGET_BYTES = 150 * 1024;

/**
 * Prints the gzip size of each JavaScript file of the build and the page's own total (without
 * MapLibre, which loads on demand in its own chunk), and fails the build over the budget.
 */
export function budget(): Plugin {
  return {
    name: 'guest-web-budget',
    apply: 'build',
    generateBundle(_options, bundle) {
      let own = 0;
      const rows: string[] = [];
      for (const file of Object.values(bundle)) {
        const code = file.type === 'chunk' ? file.code : typeof file.source === 'string' ? file.source : null;
        if (code === null && !file.fileName.endsWith('.mjs')) continue;
        if (!/\.m?js$/.test(file.fileName)) continue;
        const bytes = gzipSync(code ?? Buffer.from((file as { source: Uint8Array }).source)).length;
        const maplibre =
          /maplibre/i.test(file.fileName) ||
          (file.type === 'chunk' && Object.keys(file.modules).some((m) => m.includes('/maplibre-gl/')));
        if (!maplibre) own += bytes;
        rows.push(
          `  ${(bytes / 1024).toFixed(1).padStart(8)} KB gzip  ${file.fileName}${maplibre ? '  (MapLibre)' : ''}`,
        );
      }
      const line = `[budget] the page's own JavaScript: ${(own / 1024).toFixed(1)} KB gzip (budget ${OWN_JS_BUDGET_BYTES / 1024} KB, MapLibre not counted)`;
      process.stdout.write(`\n${rows.join('\n')}\n${line}\n`);
      if (own > OWN_JS_BUDGET_BYTES) this.error(`${line}: over budget`);
    },
  };
}
