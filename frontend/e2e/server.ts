import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The shop one Playwright worker tests against: the REAL server binary serving the built frontend
 * from a fresh SQLite database seeded with demo data, its own media folder and mail outbox, on a
 * port of its own (E2E_PORT + the worker's index). Workers run side by side without seeing each
 * other's orders, stock or mails.
 */
export type ShopServer = {
  baseURL: string;
  databaseUrl: string;
  outboxDir: string;
  stop: () => Promise<void>;
};

const here = path.dirname(fileURLToPath(import.meta.url));
const repository = path.resolve(here, '../..');

/** How long a server may take to answer its health check (migrations and demo data). */
const STARTUP_MS = 120_000;

export async function startShop(workerIndex: number): Promise<ShopServer> {
  const binary = process.env.GARDEN_E2E_SERVER_BIN;
  const staticDir = process.env.GARDEN_E2E_STATIC_DIR;
  if (!binary || !staticDir) throw new Error('Run through playwright.config.ts.');
  const port = Number(process.env.E2E_PORT ?? 18181) + workerIndex;
  const baseURL = `http://127.0.0.1:${port}`;
  const runDir = mkdtempSync(path.join(tmpdir(), `garden-e2e-${workerIndex}-`));
  const mediaDir = path.join(runDir, 'media');
  const outboxDir = path.join(runDir, 'outbox');
  mkdirSync(mediaDir, { recursive: true });
  mkdirSync(outboxDir, { recursive: true });
  const databaseUrl = `sqlite://${path.join(runDir, 'shop.db')}?mode=rwc`;

  const child = spawn(binary, [], {
    // the server reads config/*.toml relative to the repository root
    cwd: repository,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      SHOP_ENV: 'test',
      DATABASE_URL: databaseUrl,
      SHOP__SERVER__PORT: String(port),
      SHOP__SERVER__HOST: '127.0.0.1',
      SHOP__SERVER__STATIC_DIR: staticDir,
      SHOP__MEDIA__ROOT: mediaDir,
      SHOP__SEED__DEMO_DATA: 'true',
      // Links in mails point at this server, and it accepts form posts from this origin.
      SHOP__SITE__PUBLIC_URL: baseURL,
      SHOP__MAIL__OUTBOX_DIR: outboxDir,
      // The dated sample of the ECB's rates (development's): the currency switcher offers
      // EUR, GBP, BRL and the rest beside the base (e2e/currencies.spec.ts).
      SHOP__CURRENCY__RATES_URL: 'file:config/rates/ecb-sample-2026-11-27.xml',
      // Every browser context of the run is one address (127.0.0.1), where real shoppers each
      // have their own; and a page left behind keeps its stream's place until the next heartbeat
      // (actix notices a closed connection only when it writes). The per-address limit itself is
      // tested as the attack in the API tests (crates/app/tests/api/events.rs).
      SHOP__EVENTS__MAX_STREAMS_PER_IP: '500',
      SHOP__EVENTS__MAX_STREAMS_PER_USER: '500',
    },
  });
  const log: string[] = [];
  const keep = (chunk: Buffer) => {
    log.push(chunk.toString());
    if (log.length > 200) log.shift();
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));

  await waitForHealth(`${baseURL}/api/health`, child, exited, log);
  return {
    baseURL,
    databaseUrl,
    outboxDir,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Asks /api/health until it answers 200, the process exits, or STARTUP_MS pass. */
async function waitForHealth(
  url: string,
  child: ChildProcess,
  exited: Promise<number | null>,
  log: string[],
): Promise<void> {
  let gone = false;
  void exited.then(() => {
    gone = true;
  });
  const deadline = Date.now() + STARTUP_MS;
  while (Date.now() < deadline) {
    if (gone) throw new Error(`The shop at ${url} exited (${child.exitCode}):\n${log.join('')}`);
    try {
      const answer = await fetch(url);
      if (answer.ok) return;
    } catch {
      // not listening yet
    }
    // the next try once the process has had a moment, or at once when it exits
    await Promise.race([new Promise((resolve) => setTimeout(resolve, 100)), exited]);
  }
  child.kill('SIGKILL');
  throw new Error(`The shop at ${url} did not answer within ${STARTUP_MS} ms:\n${log.join('')}`);
}
