import {
  test as base,
  type Browser,
  type BrowserContext,
  type ConsoleMessage,
  type Request,
} from '@playwright/test';

import { startShop, type ShopServer } from './server';

export * from '@playwright/test';

/**
 * Every browser test watches the console: a console error, an uncaught exception or a request
 * that failed on the network (not one answered with a 4xx: that is the server speaking) fails
 * the test, unless the test said it expects it (issue 23, item 10). Pages of contexts the test
 * opens itself (`browser.newContext()`) are watched too.
 *
 *   test('a refused cancel', async ({ page, consoleErrors }) => {
 *     consoleErrors.expect(/status of 409 .* \/api\/orders\/\d+\/cancel/, 'the second cancel');
 *     …
 *   });
 *
 * A pattern is matched against one line per problem: `console error: TEXT (at URL)`,
 * `page error: MESSAGE`, `request failed: METHOD URL (ERROR)`.
 */
export class ConsoleErrors {
  private readonly allowed: Array<{ pattern: RegExp; reason: string }> = [];

  /** Allows the problems matching `pattern` in this test, and says why. */
  expect(pattern: RegExp, reason: string): void {
    this.allowed.push({ pattern, reason });
  }

  /**
   * Allows the console line Chromium writes for one deliberate error answer: `status` from the
   * API path `path` (exactly, or matching the RegExp), e.g. (401, '/api/login', 'a wrong
   * password').
   */
  expectAnswer(status: number, path: string | RegExp, reason: string): void {
    const where = typeof path === 'string' ? escapeRegExp(path) : path.source;
    this.expect(
      new RegExp(
        `^console error: Failed to load resource: the server responded with a status of ${status} ` +
          `\\([^)]*\\) \\(at https?://[^/]+${where}(\\?[^)]*)?\\)$`,
      ),
      reason,
    );
  }

  /** The problems none of the test's patterns allows. */
  unexpected(seen: readonly string[]): string[] {
    return seen.filter((line) => !this.allowed.some(({ pattern }) => pattern.test(line)));
  }

  /** For the report: what the test allowed, and why. */
  annotations(): Array<{ type: string; description: string }> {
    return this.allowed.map(({ pattern, reason }) => ({
      type: 'expected console error',
      description: `${String(pattern)}: ${reason}`,
    }));
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * A request the browser gave up on because the page moved on (a navigation, a closed page or an
 * event stream the app closed itself) is no failure: Chromium calls that net::ERR_ABORTED.
 */
const CANCELLED = 'net::ERR_ABORTED';

function describeConsole(message: ConsoleMessage): string {
  const at = message.location().url;
  return `console error: ${message.text()}${at ? ` (at ${at})` : ''}`;
}

function describeFailure(request: Request): string | null {
  const reason = request.failure()?.errorText ?? 'failed';
  if (reason === CANCELLED) return null;
  return `request failed: ${request.method()} ${request.url()} (${reason})`;
}

function watch(context: BrowserContext, seen: string[]): void {
  context.on('console', (message) => {
    if (message.type() === 'error') seen.push(describeConsole(message));
  });
  context.on('weberror', (error) => seen.push(`page error: ${error.error().message}`));
  context.on('requestfailed', (request) => {
    const failure = describeFailure(request);
    if (failure) seen.push(failure);
  });
}

export const test = base.extend<
  { consoleErrors: ConsoleErrors; watchConsole: undefined },
  { shop: ShopServer }
>({
  // One shop per worker (e2e/server.ts): its address is every page's and request's baseURL, and
  // the helpers that read its outbox, run its CLI or call its API (shopUrl()) find them through
  // the environment, which is this worker process's own.
  shop: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from it
    async ({}, provide, workerInfo) => {
      const shop = await startShop(workerInfo.parallelIndex);
      process.env.GARDEN_E2E_DATABASE_URL = shop.databaseUrl;
      process.env.GARDEN_E2E_OUTBOX_DIR = shop.outboxDir;
      process.env.GARDEN_E2E_BASE_URL = shop.baseURL;
      try {
        await provide(shop);
      } finally {
        await shop.stop();
      }
    },
    // auto: started before a file's beforeAll hooks, which reach the shop through shopUrl()
    { scope: 'worker', auto: true, timeout: 180_000 },
  ],
  baseURL: async ({ shop }, provide) => {
    await provide(shop.baseURL);
  },
  // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from it
  consoleErrors: async ({}, provide) => {
    await provide(new ConsoleErrors());
  },
  watchConsole: [
    async ({ context, browser, consoleErrors }, provide, testInfo) => {
      const seen: string[] = [];
      watch(context, seen);
      const newContext = browser.newContext.bind(browser);
      browser.newContext = async (...args: Parameters<Browser['newContext']>) => {
        const opened = await newContext(...args);
        watch(opened, seen);
        return opened;
      };
      try {
        await provide(undefined);
      } finally {
        browser.newContext = newContext;
      }
      testInfo.annotations.push(...consoleErrors.annotations());
      const unexpected = consoleErrors.unexpected(seen);
      // a test that failed already says why; these would only bury it
      if (unexpected.length > 0 && testInfo.status === testInfo.expectedStatus) {
        throw new Error(
          `The browser reported ${unexpected.length} problem(s) the test did not expect ` +
            `(declare expected ones with consoleErrors.expect(pattern, reason)):\n` +
            unexpected.join('\n'),
        );
      }
    },
    { auto: true },
  ],
});
