import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath, URL } from 'node:url';

import { constants } from 'node:zlib';

import react from '@vitejs/plugin-react';
import { compression, defineAlgorithm } from 'vite-plugin-compression2';
import { defineConfig } from 'vitest/config';

const apiTarget = process.env.GARDEN_SHOP_API ?? 'http://127.0.0.1:8080';

/**
 * React Router 7 exports only its development build (remix-run/react-router#14102: dev warnings
 * and checks, ~50 KB more), so a production build takes the production files it also ships.
 */
const reactRouterProduction = [
  { find: /^react-router$/, file: 'index.mjs' },
  { find: /^react-router\/dom$/, file: 'dom-export.mjs' },
].map(({ find, file }) => ({
  find,
  replacement: fileURLToPath(
    new URL(`./node_modules/react-router/dist/production/${file}`, import.meta.url),
  ),
}));

/** react-i18next's copy of `useSyncExternalStore` for React before 18: React's own instead. */
const syncExternalStoreShim = {
  find: /^use-sync-external-store\/shim$/,
  replacement: fileURLToPath(new URL('./src/lib/i18n/use-sync-external-store.ts', import.meta.url)),
};

/**
 * The Vitest files that replace a module (`vi.mock`): each runs in a fresh module registry and
 * document. The others share one per worker, as a fresh jsdom and module graph for each file cost
 * more than its tests; `src/testing/setup-tests.ts` resets the document, storage and stores
 * between tests.
 */
const testFiles = readdirSync('src', { recursive: true, encoding: 'utf8' })
  .filter((file) => /\.test\.tsx?$/.test(file))
  .map((file) => `src/${file.split('\\').join('/')}`)
  .filter((file) => !file.startsWith('src/locales/'));
const isolatedFiles = testFiles.filter((file) =>
  /\bvi\.(do)?[mM]ock\(/.test(readFileSync(file, 'utf8')),
);

export default defineConfig(({ mode }) => ({
  plugins: [
    react(),
    // foo.js.br and foo.js.gz beside each hashed file, compressed once at their best: the server
    // sends them to browsers that accept them (crates/app/src/routes/spa.rs) instead of
    // compressing on every request at a fast level (a third smaller for the entry chunk).
    compression({
      include: /^assets\/.*\.(js|css|svg)$/,
      threshold: 1024,
      algorithms: [
        defineAlgorithm('gzip', { level: 9 }),
        defineAlgorithm('brotliCompress', {
          params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY },
        }),
      ],
    }),
  ],
  resolve: {
    alias: [
      { find: '@', replacement: fileURLToPath(new URL('./src', import.meta.url)) },
      ...(mode === 'production' ? [...reactRouterProduction, syncExternalStoreShim] : []),
    ],
  },
  server: {
    proxy: {
      '/api': { target: apiTarget, changeOrigin: false },
      '/media': { target: apiTarget, changeOrigin: false },
    },
  },
  build: {
    // Maps are written for whoever runs the shop to read a stack trace with, but the bundles do
    // not point at them and the server never serves *.map (crates/app/src/routes/spa.rs): the
    // source and its comments are not published.
    sourcemap: 'hidden',
    // dist/.vite/manifest.json: the server reads it to preload the storefront pages' chunks
    // with the HTML (crates/app/src/routes/spa.rs); it answers 404 to browsers.
    manifest: true,
  },
  test: {
    environment: 'jsdom',
    globals: true,
    setupFiles: ['./src/testing/setup-tests.ts'],
    css: false,
    restoreMocks: true,
    unstubGlobals: true,
    projects: [
      // The message files' checks read files and parse the source (i18next-parser, whose esbuild
      // needs Node's own TextEncoder): Node, no page, none of the app's test setup.
      {
        resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
        test: { name: 'locales', environment: 'node', include: ['src/locales/*.test.ts'] },
      },
      { extends: true, test: { name: 'isolated', include: isolatedFiles } },
      {
        extends: true,
        test: {
          name: 'shared',
          include: testFiles.filter((file) => !isolatedFiles.includes(file)),
          isolate: false,
        },
      },
    ],
  },
}));
