import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/**', '.data/**', 'migrations/**', 'coverage/**', 'tools/**'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      // The engine client and JSON from the index are untyped at the edges; narrowing happens in zod.
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'off',
    },
  },
);
