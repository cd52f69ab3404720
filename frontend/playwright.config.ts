import { existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { defineConfig } from '@playwright/test';

/**
 * Browser tests against the REAL server binary, serving the built frontend (npm run build first)
 * from a fresh SQLite database seeded with demo data. Chromium is Debian's (/usr/bin/chromium);
 * Playwright never downloads a browser here.
 */

const here = path.dirname(fileURLToPath(import.meta.url));
// E2E_PORT: engineers running the browser tests side by side each take their own port.
const PORT = Number(process.env.E2E_PORT ?? 18181);
const BASE_URL = `http://127.0.0.1:${PORT}`;

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

// A fresh database and media folder for every run. The config is also loaded by the test
// workers; they inherit the main process's choice through the environment.
process.env.GARDEN_E2E_RUN_DIR ??= mkdtempSync(path.join(tmpdir(), 'garden-e2e-'));
const runDir = process.env.GARDEN_E2E_RUN_DIR;
const mediaDir = path.join(runDir, 'media');
mkdirSync(mediaDir, { recursive: true });
// Kept in the environment too: the workers load this file again and must reach the same
// database (the staff CLI) and the same outbox (the mails with codes and reset links).
process.env.GARDEN_E2E_DATABASE_URL ??= `sqlite://${path.join(runDir, `garden-e2e-${Date.now()}.db`)}?mode=rwc`;
const databaseUrl = process.env.GARDEN_E2E_DATABASE_URL;
process.env.GARDEN_E2E_OUTBOX_DIR ??= path.join(runDir, 'outbox');
const outboxDir = process.env.GARDEN_E2E_OUTBOX_DIR;
mkdirSync(outboxDir, { recursive: true });
process.env.GARDEN_E2E_SERVER_BIN ??= serverBinary;

export default defineConfig({
  testDir: './e2e',
  outputDir: 'test-results',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  forbidOnly: !!process.env.CI,
  timeout: 30_000,
  expect: { timeout: 10_000 },
  reporter: [['list'], ['html', { outputFolder: 'playwright-report', open: 'never' }]],
  use: {
    baseURL: BASE_URL,
    trace: 'retain-on-failure',
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
  webServer: {
    command: `"${serverBinary}"`,
    // The server reads config/*.toml relative to the repository root.
    cwd: path.resolve(here, '..'),
    url: `${BASE_URL}/api/health`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'pipe',
    stderr: 'pipe',
    env: {
      SHOP_ENV: 'test',
      DATABASE_URL: databaseUrl,
      SHOP__SERVER__PORT: String(PORT),
      SHOP__SERVER__HOST: '127.0.0.1',
      SHOP__SERVER__STATIC_DIR: staticDir,
      SHOP__MEDIA__ROOT: mediaDir,
      SHOP__SEED__DEMO_DATA: 'true',
      // Links in mails point at this server, and it accepts form posts from this origin.
      SHOP__SITE__PUBLIC_URL: BASE_URL,
      SHOP__MAIL__OUTBOX_DIR: outboxDir,
      // Every browser context of the run is one address (127.0.0.1), where real shoppers each
      // have their own; and a page left behind keeps its stream's place until the next heartbeat
      // (actix notices a closed connection only when it writes). The per-address limit itself is
      // tested as the attack in the API tests (crates/app/tests/api/events.rs).
      SHOP__EVENTS__MAX_STREAMS_PER_IP: '500',
      SHOP__EVENTS__MAX_STREAMS_PER_USER: '500',
    },
  },
});
