import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import AxeBuilder from '@axe-core/playwright';
import {
  expect,
  type APIRequestContext,
  type Browser,
  type Locator,
  type Page,
  type TestInfo,
} from '@playwright/test';

/** The product fields the tests rely on, as GET /api/products returns them. */
export type ApiProduct = {
  id: number;
  name: string;
  category: string;
  price: number;
  stock: number | null;
  dupe_warning: boolean;
  image: string;
};

export async function fetchProducts(request: APIRequestContext): Promise<ApiProduct[]> {
  const response = await request.get('/api/products');
  expect(response.ok()).toBe(true);
  const products = (await response.json()) as ApiProduct[];
  expect(products.length).toBeGreaterThan(0);
  return products;
}

/** An in-stock product without the dupe warning: it goes straight into the cart. */
export function plainProduct(products: ApiProduct[]): ApiProduct {
  const product = products.find((p) => !p.dupe_warning && p.stock !== 0);
  if (!product) throw new Error('The demo data has no in-stock product without a dupe warning.');
  return product;
}

/**
 * A product to buy in a test that is not about stock: unlimited (Sheckles), so the orders it
 * places never change what the other tests of the same shop see.
 */
export function unlimitedProduct(products: ApiProduct[]): ApiProduct {
  const product = products.find((p) => !p.dupe_warning && p.stock === null);
  if (!product) throw new Error('The demo data has no product of unlimited stock.');
  return product;
}

export const productList = (page: Page) => page.getByRole('list', { name: 'Products' });

/** The grid's cards (not the badge lists inside them). */
export const productCards = (page: Page) => productList(page).locator(':scope > li');

/** The names shown in the grid, in order. */
export async function shownNames(page: Page): Promise<string[]> {
  return productList(page).getByRole('heading', { level: 3 }).allTextContents();
}

export const cartCount = (page: Page) => page.getByTestId('cart-count');

export const cartDrawer = (page: Page) => page.getByRole('dialog', { name: 'Your Cart' });

/** The cart as saved in localStorage under `cartItems`. */
export async function savedCart(page: Page): Promise<Array<{ id: number; qty: number }>> {
  return page.evaluate(() => JSON.parse(window.localStorage.getItem('cartItems') ?? '[]'));
}

export async function expectNoHorizontalScroll(page: Page): Promise<void> {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  expect(scrollWidth, 'the page must not scroll sideways').toBeLessThanOrEqual(innerWidth);
}

const artifactsDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../e2e-artifacts');

/**
 * A screenshot, attached to the report and kept in e2e-artifacts/. Full page by default; overlays
 * (drawer, modal) are taken as the screen shows them.
 */
export async function saveScreenshot(
  page: Page,
  testInfo: TestInfo,
  name: string,
  { fullPage = true }: { fullPage?: boolean } = {},
): Promise<void> {
  // Load every lazy image and the fonts, so the picture shows the page as a shopper sees it.
  await page.evaluate(async () => {
    const images = Array.from(document.images);
    images.forEach((image) => (image.loading = 'eager'));
    await Promise.all(
      images.map((image) =>
        image.complete
          ? null
          : new Promise((done) => {
              image.addEventListener('load', done, { once: true });
              image.addEventListener('error', done, { once: true });
            }),
      ),
    );
    await document.fonts.ready;
  });
  // taken once: the same picture is attached to the report and kept in e2e-artifacts/
  const body = await page.screenshot({ fullPage, animations: 'disabled' });
  await testInfo.attach(name, { body, contentType: 'image/png' });
  mkdirSync(artifactsDir, { recursive: true });
  writeFileSync(path.join(artifactsDir, `${name}.png`), body);
}

/** The value, or a failure explaining what the demo data lacks. */
export function required<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`The demo data has no ${what}.`);
  return value;
}

// ---------------------------------------------------------------------------------------------
// Accounts: the mail outbox and staff accounts of the e2e server (see playwright.config.ts).

/** A mail from the server's outbox (one .eml file), decoded. */
export type OutboxMail = { file: string; to: string; subject: string; text: string; html: string };

function outboxDir(): string {
  const dir = process.env.GARDEN_E2E_OUTBOX_DIR;
  if (!dir) throw new Error('GARDEN_E2E_OUTBOX_DIR is not set: run through playwright.config.ts.');
  return dir;
}

/** The .eml files written so far, oldest first (their names start with a UTC timestamp). */
export function outboxFiles(): string[] {
  if (!existsSync(outboxDir())) return [];
  return readdirSync(outboxDir())
    .filter((name) => name.endsWith('.eml') && !name.startsWith('.'))
    .sort();
}

/** Headers of one MIME entity, unfolded and keyed lowercase; and the body after them. */
function splitEntity(raw: string): { headers: Map<string, string>; body: string } {
  const text = raw.replace(/\r\n/g, '\n');
  const end = text.indexOf('\n\n');
  const head = end === -1 ? text : text.slice(0, end);
  const body = end === -1 ? '' : text.slice(end + 2);
  const headers = new Map<string, string>();
  for (const line of head.replace(/\n[ \t]+/g, ' ').split('\n')) {
    const colon = line.indexOf(':');
    if (colon > 0)
      headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return { headers, body };
}

function decodeQuotedPrintable(body: string): string {
  const bytes: number[] = [];
  const softBroken = body.replace(/=\n/g, '');
  for (let i = 0; i < softBroken.length; i += 1) {
    const hex = softBroken.slice(i + 1, i + 3);
    if (softBroken[i] === '=' && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(softBroken[i] ?? '', 'utf8'));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

function decodeBody(headers: Map<string, string>, body: string): string {
  const encoding = (headers.get('content-transfer-encoding') ?? '7bit').toLowerCase();
  if (encoding === 'quoted-printable') return decodeQuotedPrintable(body);
  if (encoding === 'base64')
    return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  return body;
}

/** "=?utf-8?b?…?=" encoded words in a header, decoded. */
function decodeHeader(value: string): string {
  return value.replace(
    /=\?([^?]+)\?([bBqQ])\?([^?]*)\?=/g,
    (_, _charset, kind: string, data: string) =>
      kind.toLowerCase() === 'b'
        ? Buffer.from(data, 'base64').toString('utf8')
        : decodeQuotedPrintable(data.replace(/_/g, ' ')),
  );
}

/** Reads one .eml: the recipient, the subject and its plain-text and HTML parts, decoded. */
export function readMail(file: string): OutboxMail {
  const { headers, body } = splitEntity(readFileSync(path.join(outboxDir(), file), 'utf8'));
  const mail: OutboxMail = {
    file,
    to: decodeHeader(headers.get('to') ?? ''),
    subject: decodeHeader(headers.get('subject') ?? ''),
    text: '',
    html: '',
  };
  const contentType = headers.get('content-type') ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(contentType)?.[1];
  const parts = boundary
    ? body
        .replace(/\r\n/g, '\n')
        .split(`--${boundary}`)
        .slice(1)
        .filter((part) => !part.startsWith('--'))
        .map((part) => splitEntity(part.replace(/^\n/, '')))
    : [{ headers, body }];
  for (const part of parts) {
    const type = (part.headers.get('content-type') ?? 'text/plain').toLowerCase();
    const decoded = decodeBody(part.headers, part.body);
    if (type.startsWith('text/plain')) mail.text = decoded;
    else if (type.startsWith('text/html')) mail.html = decoded;
  }
  return mail;
}

/**
 * Waits for the newest mail to `address` among those written after `seenBefore` (the
 * outboxFiles() taken before the action that sends it), with `subject` when given: mails go
 * out one by one from the outbox, so after several actions the newest may still be an
 * earlier action's.
 */
export async function waitForMail(
  address: string,
  seenBefore: readonly string[],
  subject?: string,
): Promise<OutboxMail> {
  const seen = new Set(seenBefore);
  let found: OutboxMail | undefined;
  await expect
    .poll(
      () => {
        const fresh = outboxFiles()
          .filter((file) => !seen.has(file))
          .map(readMail)
          .filter((mail) => mail.to.toLowerCase().includes(address.toLowerCase()))
          .filter((mail) => subject === undefined || mail.subject === subject);
        found = fresh.at(-1);
        return found !== undefined;
      },
      {
        message: `a new mail to ${address} (${subject ?? 'any subject'}) in the outbox`,
        timeout: 10_000,
      },
    )
    .toBe(true);
  if (!found) throw new Error(`No mail to ${address}.`);
  return found;
}

/** The 6-digit code of a sign-up mail. */
export function codeIn(mail: OutboxMail): string {
  const code = /\b(\d{6})\b/.exec(mail.text)?.[1];
  if (!code) throw new Error(`No 6-digit code in the mail "${mail.subject}":\n${mail.text}`);
  return code;
}

/** The reset link of a password-reset mail, as a path on the server under test. */
export function resetPathIn(mail: OutboxMail): string {
  const link = /(https?:\/\/\S+\/reset-password\?\S+)/.exec(mail.text)?.[1];
  if (!link) throw new Error(`No reset link in the mail "${mail.subject}":\n${mail.text}`);
  const url = new URL(link);
  return `${url.pathname}${url.search}`;
}

/**
 * Creates (or updates) an account through the server's own CLI, as an operator would:
 * `garden-shop users create EMAIL --role ROLE --name NAME`, the password on standard input,
 * against the e2e server's database.
 */
export function createAccountWithCli(
  email: string,
  password: string,
  role: 'customer' | 'admin' | 'super_admin',
  name: string,
): void {
  const binary = process.env.GARDEN_E2E_SERVER_BIN;
  const databaseUrl = process.env.GARDEN_E2E_DATABASE_URL;
  if (!binary || !databaseUrl) throw new Error('Run through playwright.config.ts.');
  const result = spawnSync(binary, ['users', 'create', email, '--role', role, '--name', name], {
    cwd: path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..'),
    input: `${password}\n`,
    encoding: 'utf8',
    env: { ...process.env, SHOP_ENV: 'test', DATABASE_URL: databaseUrl },
    timeout: 30_000,
  });
  if (result.status !== 0) {
    throw new Error(
      `garden-shop users create failed (${result.status ?? result.signal}):\n${result.stdout}\n${result.stderr}`,
    );
  }
}

/**
 * No serious or critical axe findings on the page once it has settled: a drawer or modal still
 * fading in has colours between its frames, which axe would judge.
 */
export async function expectNoSeriousA11yViolations(page: Page): Promise<void> {
  await page.waitForFunction(() =>
    document.getAnimations().every((animation) => animation.playState !== 'running'),
  );
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations.filter(
    (violation) => violation.impact === 'serious' || violation.impact === 'critical',
  );
  expect(
    serious.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`),
  ).toEqual([]);
}

// ---------------------------------------------------------------------------------------------
// Checkout with the server's local providers: the dev Discord sign-in page
// (/dev/discord/authorize) and the dev payment page (/dev/pay/{id}, Pay and Cancel).

/** Logs in through the API with the Origin the server expects for state-changing calls. */
export async function apiLogIn(
  request: APIRequestContext,
  baseURL: string,
  email: string,
  password: string,
) {
  const response = await request.post('/api/login', {
    data: { email, password },
    headers: { Origin: baseURL },
  });
  expect(response.ok(), await response.text()).toBe(true);
}

/** Puts `qty` of the product in the saved cart (as the storefront would) and opens /checkout. */
export async function openCheckoutWith(
  page: Page,
  request: APIRequestContext,
  lines: Array<[number, number]>,
) {
  const products = await request.get('/api/products').then((r) => r.json());
  await page.goto('/');
  await page.evaluate(
    ({ products, lines }) => {
      const items = lines.map(([id, qty]) => ({
        ...(products as Array<{ id: number }>).find((p) => p.id === id),
        qty,
      }));
      window.localStorage.setItem('cartItems', JSON.stringify(items));
    },
    { products, lines },
  );
  await page.goto('/checkout');
  await expect(page.getByRole('heading', { level: 1, name: 'Checkout' })).toBeVisible();
}

/** Link Discord: off to the dev sign-in page, pick the first demo identity, back to /checkout. */
export async function linkDiscord(page: Page): Promise<string> {
  await page.getByRole('link', { name: 'Link Discord' }).click();
  await expect(page).toHaveURL(/\/dev\/discord\/authorize\?/);
  await page
    .getByRole('button', { name: /^Continue as / })
    .first()
    .click();
  await expect(page).toHaveURL(/\/checkout$/);
  await expect(page.getByText(/^Discord linked as /)).toBeVisible();
  const username = (await page.getByTestId('discord-username').textContent()) ?? '';
  expect(username).not.toBe('');
  expect(await page.evaluate(() => window.localStorage.getItem('discord_link_version'))).toBe('v2');
  return username;
}

export async function fillDetails(page: Page, robloxUsername = 'GardenFan_1') {
  const roblox = page.getByLabel('Roblox username');
  await roblox.fill(robloxUsername);
  await page.getByLabel('Email').fill('buyer@example.com');
  // The lookup runs on blur (moving to the e-mail): the name as Roblox spells it, and an avatar.
  // The offline stand-in keeps any well-formed name as typed.
  await expect(page.getByRole('img', { name: `Roblox avatar of ${robloxUsername}` })).toBeVisible();
  await expect(roblox).toHaveValue(robloxUsername);
}

/** Complete Payment -> the method modal -> Card -> the dev payment page; returns the order id. */
export async function payByCardOnDevPage(page: Page, testInfo?: TestInfo, shotName?: string) {
  await page.getByRole('button', { name: 'Complete Payment' }).click();
  const modal = page.getByRole('dialog', { name: 'Choose a payment method' });
  await expect(modal).toBeVisible();
  // PayPal is not configured on the test server: card only.
  await expect(modal.getByRole('button', { name: /PayPal/ })).toHaveCount(0);
  if (testInfo && shotName) {
    await expectNoSeriousA11yViolations(page);
    await saveScreenshot(page, testInfo, shotName, { fullPage: false });
  }
  await modal.getByRole('button', { name: /Card/ }).click();
  await expect(page).toHaveURL(/\/dev\/pay\/\d+$/);
  return Number(/\/dev\/pay\/(\d+)$/.exec(page.url())?.[1]);
}

/** The private server link the tests' staff meet buyers in. */
export const E2E_PRIVATE_SERVER = 'https://www.roblox.com/share?code=e2e&type=Server';

/**
 * Gives the signed-in member of staff a private server link (PUT /api/admin/private-server), which
 * claiming an order needs. `request`: the staff page's `page.request` (it shares the page's
 * session) or an API context logged in as staff.
 */
export async function setPrivateServerLink(
  request: APIRequestContext,
  baseURL: string,
  url: string = E2E_PRIVATE_SERVER,
): Promise<void> {
  const answer = await request.put('/api/admin/private-server', {
    data: { url },
    headers: { Origin: baseURL },
  });
  expect(answer.status(), await answer.text()).toBe(200);
  expect(await answer.json()).toEqual({ url });
}

/**
 * A super_admin opens /admin/audit in a browser of their own and finds each entry, named as the
 * page names it ("Order claimed order:12"), and containing all the given texts (e.g. "By Alma
 * Admin").
 */
export async function expectInAuditLog(
  browser: Browser,
  superAdmin: { email: string; password: string },
  entries: { name: string | RegExp; texts: string[] }[],
): Promise<void> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  try {
    await page.goto('/login');
    await page.getByLabel('Email').fill(superAdmin.email);
    await page.getByLabel('Password', { exact: true }).fill(superAdmin.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect(page).toHaveURL(/\/$/);
    await page.goto('/admin/audit');
    await expect(page.getByRole('list', { name: 'Audit log entries' })).toBeVisible();
    for (const { name, texts } of entries) {
      let entry = page.getByRole('listitem', { name, exact: true });
      for (const text of texts) entry = entry.filter({ hasText: text });
      // (a retried test may have written one before: at least one, then)
      await expect(entry.first(), `${String(name)} with ${texts.join(', ')}`).toBeVisible();
    }
  } finally {
    await context.close();
  }
}

/**
 * Scrolls `target` under the floating chat button and checks that the button steps aside
 * (issue 23: on phones it covered the checkout's total, the Roblox avatar and the order's
 * Roblox name); back at the top, the button is there again. Returns whether the page could put
 * the target under the button at all (a short page cannot), so a test can insist that it did.
 */
export async function expectChatButtonStepsAside(page: Page, target: Locator): Promise<boolean> {
  // (by its class: while away it is out of the accessibility tree too)
  await expect(page.locator('.chat-launcher')).toHaveCount(1);
  await target.scrollIntoViewIfNeeded();
  const aligned = await target.evaluate((element) => {
    const button = document.querySelector('.chat-launcher');
    if (!button) throw new Error('no chat button');
    const centre = (box: DOMRect) => box.top + box.height / 2;
    window.scrollBy(
      0,
      centre(element.getBoundingClientRect()) - centre(button.getBoundingClientRect()),
    );
    const a = element.getBoundingClientRect();
    const b = button.getBoundingClientRect();
    return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  });
  // covered: the target under a button that is still there to be seen
  await expect
    .poll(
      () =>
        target.evaluate((element) => {
          const button = document.querySelector('.chat-launcher');
          if (!button) return false;
          const a = element.getBoundingClientRect();
          const b = button.getBoundingClientRect();
          const overlap =
            a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
          return overlap && getComputedStyle(button).visibility !== 'hidden';
        }),
      { message: 'the chat button covers the target' },
    )
    .toBe(false);
  await page.evaluate(() => window.scrollTo(0, 0));
  return aligned;
}

/**
 * The numbered titles of the delivery script a page shows ("1. Wait for a member of staff", …),
 * as a buyer reads them (without the words only screen readers hear).
 */
export async function scriptOnPage(page: Page): Promise<string[]> {
  const list = page.getByTestId('delivery-steps');
  await expect(list).toBeVisible();
  return list.locator(':scope > li').evaluateAll((items) =>
    items.map((item, index) => {
      const title = item.querySelector('strong')?.cloneNode(true);
      if (!(title instanceof HTMLElement)) return `${index + 1}. ?`;
      title.querySelectorAll('.visually-hidden').forEach((hidden) => hidden.remove());
      return `${index + 1}. ${title.textContent?.trim() ?? ''}`;
    }),
  );
}

/** The same titles in a mail's plain text ("  1. Join our Discord server: https://…"). */
export function scriptInMail(mail: OutboxMail): string[] {
  return mail.text
    .split('\n')
    .map((line) => /^ {2}(\d+)\. (.+?)(?:: https?:\/\/\S+)?(?: \u2713 done)?$/.exec(line))
    .filter((match): match is RegExpExecArray => match !== null)
    .map((match) => `${match[1]}. ${match[2]}`);
}

/** The address of this worker's shop (e2e/server.ts, started by the `shop` fixture). */
export function shopUrl(): string {
  const url = process.env.GARDEN_E2E_BASE_URL;
  if (!url) throw new Error('GARDEN_E2E_BASE_URL is not set: run through playwright.config.ts.');
  return url;
}
