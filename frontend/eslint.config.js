import { readdirSync } from 'node:fs';

import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const FEATURES = readdirSync(new URL('./src/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

const relativeParentImports = {
  group: ['../*/**'],
  message: 'Use the @/ alias for imports that leave the current folder.',
};

/** Imports flow one way: shared -> features -> app. */
const importBoundaries = [
  ...FEATURES.map((feature) => ({
    files: [`src/features/${feature}/**`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            relativeParentImports,
            {
              regex: `^@/features/(?!${feature}(/|$))`,
              message: 'A feature does not import another feature: compose them in src/app.',
            },
            { group: ['@/app/**'], message: 'Features do not import from src/app.' },
          ],
        },
      ],
    },
  })),
  {
    files: ['src/components/**', 'src/lib/**', 'src/config/**', 'src/hooks/**', 'src/types/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            relativeParentImports,
            {
              group: ['@/features/**', '@/app/**'],
              message: 'Shared code does not depend on features or the app.',
            },
          ],
        },
      ],
    },
  },
];

export default tseslint.config(
  { ignores: ['dist', 'coverage', 'playwright-report', 'test-results', 'e2e-artifacts'] },
  {
    files: ['**/*.{ts,tsx}'],
    extends: [js.configs.recommended, ...tseslint.configs.strict],
    languageOptions: {
      ecmaVersion: 2023,
      globals: { ...globals.browser },
    },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-restricted-imports': ['error', { patterns: [relativeParentImports] }],
    },
  },
  ...importBoundaries,
  {
    files: ['e2e/**', '*.config.{ts,js}'],
    languageOptions: { globals: { ...globals.node } },
  },
  prettier,
);
