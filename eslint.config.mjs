// ESLint (flat config): typescript-eslint's recommended rules everywhere, the rules of hooks in the
// console. Formatting is Prettier's job (`npm run format`), so no stylistic rules here.
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      'dist/',
      'data/',
      'coverage/',
      'screenshots/',
      'bench/results/',
      'src/.umi*/',
      '.umi*/',
      // Written by `npm run gen`, each with a header saying so.
      'schemas/generated/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      // A `let` read by a closure before its one assignment (a late-bound bus, a timer) stays a `let`.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      // A leading underscore marks a value left out on purpose (a rest sibling, a callback's slot).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
    },
  },
  {
    // CommonJS by necessity: jest's config and transforms, the worker thread's loader.
    files: ['**/*.cjs', 'jest.config.js', 'tests/setup/*.js'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['src/**/*.{ts,tsx}', 'tests/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    // The classic rules of hooks; the console is not compiled by the React Compiler, so its rules
    // (refs, set-state-in-effect, …) do not apply.
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
  },
);
