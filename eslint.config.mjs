// @ts-check
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/dist/**', 'tests/build/**', 'models/**', '**/*.js', '**/*.cjs', 'packages/client/src/schema.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      // The ports are Promise-based and the embedded engines (better-sqlite3) are synchronous:
      // their adapters are `async` so that a throw becomes a rejection, as a networked engine's would.
      '@typescript-eslint/require-await': 'off',
      // A `let` read by a closure before its one assignment (a timer a callback may clear early).
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true }],
    },
  },
  {
    files: ['tests/src/**/*.ts', 'packages/*/src/contract*.ts'],
    rules: {
      // tap's t.test() and t.before() return promises that tap itself awaits.
      '@typescript-eslint/no-floating-promises': [
        'error',
        { allowForKnownSafePromises: [{ from: 'package', name: 'PromiseWithSubtest', package: '@tapjs/core' }] },
      ],
      // Response bodies are JSON off the wire (`any`), checked by the assertions that read them.
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    // The route registry holds routes of different codecs (`RouteDef<any, any, any>`), and io-ts's
    // own `t.Mixed` is `Type<any, any>`: each route's types are checked where it is declared.
    files: ['packages/http/src/route.ts', 'packages/http/src/mount.ts', 'packages/http/src/openapi/document.ts', 'features/agent/src/mcp/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
    },
  },
  { files: ['**/*.mjs'], ...tseslint.configs.disableTypeChecked },
  prettier,
);
