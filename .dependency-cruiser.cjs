/**
 * The layering rules of CONTRIBUTING.md ("Boundaries"), checked in CI by `npm run check:deps`.
 * A route parses, calls a service and replies; services own SQL and engine calls; libs hold
 * mechanisms and never features; each app is deployable alone (the all-in-one server excepted);
 * whatever lives outside an app uses only what the app's package exports.
 */
const fs = require('node:fs');
const path = require('node:path');

/** Files an app's package.json `exports` names: the only way in from outside that app. */
function exportedAppFiles() {
  const files = [];
  for (const app of fs.readdirSync(path.join(__dirname, 'apps'))) {
    const manifest = path.join(__dirname, 'apps', app, 'package.json');
    if (!fs.existsSync(manifest)) continue;
    const { exports = {} } = JSON.parse(fs.readFileSync(manifest, 'utf8'));
    for (const target of Object.values(exports)) {
      files.push(path.posix.join('apps', app, String(target)));
    }
  }
  return files;
}

const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const exported = `^(${exportedAppFiles().map(escape).join('|')})$`;

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      severity: 'error',
      comment: 'An import cycle makes load order matter: moving one line can make an app fail to start.',
      from: {},
      // Type-only cycles too: they do not change load order, but a module and its part that know
      // each other read as one module split in two, and the next value import makes it a real cycle.
      to: { circular: true },
    },
    {
      name: 'app-imports-app',
      severity: 'error',
      comment: 'Apps are deployable alone; shared code goes to libs/. Only apps/server puts them together.',
      from: { path: '^apps/([^/]+)/', pathNot: '^apps/server/' },
      to: { path: '^apps/([^/]+)/', pathNot: '^apps/$1/' },
    },
    {
      name: 'lib-imports-app',
      severity: 'error',
      comment: 'libs/ hold mechanisms used by apps; a lib that imports an app or the indexer inverts the layers.',
      from: { path: '^libs/' },
      to: { path: '^(apps|indexer)/' },
    },
    {
      name: 'outside-reaches-into-app-src',
      severity: 'error',
      comment: "scripts, bench, tests, clients and the indexer use what an app's package exports, never its internals.",
      from: { path: '^(scripts|bench|indexer|test|clients)/' },
      to: { path: '^apps/[^/]+/src/', pathNot: exported },
    },
    {
      name: 'route-talks-to-storage',
      severity: 'error',
      comment: 'Routes parse, call one service and reply: SQL and engine calls live in services.',
      from: { path: '^apps/[^/]+/src/routes/' },
      to: {
        path: '(^libs/(db|search-engine)/|node_modules/(drizzle-orm|pg|pg-boss|ioredis|@opensearch-project|@elastic)/)',
      },
    },
    {
      name: 'undeclared-dependency',
      severity: 'error',
      comment:
        'A workspace package imports only what its own package.json declares, so each app and lib can be installed and deployed alone.',
      from: { path: '^(apps|libs|indexer)/' },
      to: { dependencyTypes: ['npm-no-pkg', 'npm-unknown'] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^\\.data/|^migrations/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    combinedDependencies: false,
    // Workspace packages export their TypeScript sources (`"./src/index.ts"`): resolve through
    // `exports` and the symlinks npm makes, so `@guest/db` is seen as libs/db/src/index.ts.
    preserveSymlinks: false,
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['guest-source', 'import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.js', '.mjs', '.cjs', '.json'],
      mainFields: ['module', 'main', 'types'],
    },
  },
};
