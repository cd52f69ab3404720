import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { defineConfig } from '@playwright/test';

/**
 * Browser tests against the REAL server binary, serving the built frontend (npm run build first)
 * from a fresh SQLite database seeded with demo data, one server per worker (e2e/server.ts, the
 * `shop` fixture in e2e/fixtures.ts). Chromium is Debian's (/usr/bin/chromium); Playwright never
 * downloads a browser here.
 */

const here = path.dirname(fileURLToPath(import.meta.url));
const serverBinary = path.resolve(
  here,
  process.env.GARDEN_SHOP_BIN ?? '../target/debug/garden-shop',
);
const staticDir = path.resolve(here, 'dist');
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

if (!existsSync(path.join(staticDir, 'index.html'))) {
  throw new Error(
    `No built frontend in ${staticDir}: run \`npm run build\` before \`npm run e2e\`.`,
  );
}
if (!existsSync(serverBinary)) {
  throw new Error(
    `No server binary at ${serverBinary}: build it (cargo build -p garden-app) or set GARDEN_SHOP_BIN.`,
  );
}
// Read by each worker's shop (e2e/server.ts); the workers load this file again.
process.env.GARDEN_E2E_SERVER_BIN ??= serverBinary;
process.env.GARDEN_E2E_STATIC_DIR ??= staticDir;

// Two workers by default: one per core of the CI machine. Each starts its own shop on
// E2E_PORT + its index (e2e/server.ts), so spec files run side by side without sharing data.
const WORKERS = Number(process.env.E2E_WORKERS ?? 2);

export default defineConfig({
  testDir: './e2e',
  outputDir: 'test-results',
  fullyParallel: false,
  workers: WORKERS,
  retries: 0,
  forbidOnly: !!process.env.CI,
  timeout: 30_000,
  expect: { timeout: 10_000 },
  reporter: [['list'], ['html', { outputFolder: 'playwright-report', open: 'never' }]],
  use: {
    // Traces cost the most CPU of anything in the suite. Six specs on two cores took 184 s with
    // the default failure trace (a screencast encoded all through every test), 140 s with its DOM
    // snapshots but no screencast, 121 s with no trace. CI keeps none (nobody opens a trace from
    // a CI log; a failure there still leaves its screenshot and the page's accessibility
    // snapshot in error-context.md); a local run keeps a failed test's trace without screencast.
    // `npx playwright test --trace on` records everything.
    trace: process.env.CI
      ? 'off'
      : { mode: 'retain-on-failure', screenshots: false, snapshots: true, sources: true },
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: chromium,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  projects: [
    { name: 'chromium', use: { browserName: 'chromium', viewport: { width: 1280, height: 800 } } },
  ],
});
