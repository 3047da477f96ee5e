import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'node_modules/**',
      '.data/**',
      'apps/web/dist/**',
      'test-results/**',
      'migrations/**',
      'coverage/**',
      'tools/**',
      'clients/ts/src/generated/**',
      'clients/ts/dist/**',
      // The demo of the client contract check imports a client generated at check time.
      'clients/contract-check/**',
    ],
  },
  ...tseslint.configs.recommended,
  {
    // Type-aware rules: a promise nobody awaits loses its error (an unhandled rejection ends the
    // process), and a switch over a union that misses a member fails silently at run time.
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      // The engine client and JSON from the index are untyped at the edges; narrowing happens in zod.
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': [
        'error',
        { considerDefaultExhaustiveForUnions: true, requireDefaultForNonUnion: false },
      ],
      'no-console': 'off',
    },
  },
  {
    // One time source (libs/runtime/src/clock.ts): the apps, libs and the indexer ask the injected
    // clock what time it is, so a test moves time instead of waiting for it; a duration is
    // measured with performance.now(). Tests, scripts, benches and the browser client are free.
    files: ['apps/*/src/**/*.ts', 'libs/*/src/**/*.ts', 'indexer/src/**/*.ts'],
    ignores: ['**/*.test.ts', 'apps/web/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.object.name='Date'][callee.property.name='now']",
          message: 'Ask the injected clock (Clock.now()); for a duration, performance.now().',
        },
        {
          selector: "NewExpression[callee.name='Date'][arguments.length=0]",
          message: 'Ask the injected clock (Clock.now()): new Date() reads the wall clock.',
        },
      ],
    },
  },
  {
    // Plain JavaScript (configs, the install script) is outside the TypeScript project.
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    files: ['**/*.cjs'],
    languageOptions: {
      sourceType: 'commonjs',
      globals: { require: 'readonly', module: 'writable', __dirname: 'readonly' },
    },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
