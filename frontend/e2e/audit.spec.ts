import { expect, test, type Page } from './fixtures';

import {
  apiLogIn,
  createAccountWithCli,
  expectNoHorizontalScroll,
  expectNoSeriousA11yViolations,
  saveScreenshot,
  shopUrl,
} from './helpers';

/**
 * The audit log against the real server: a super_admin (made with the CLI, which the log records
 * as "command line") creates and edits a product, changes its stock, creates a promo code and
 * blocks and unblocks an address in the browser, then finds each of those actions on
 * /admin/audit, newest first, with the values before and after, and filters by kind.
 *
 * Leaves the shop as it found it: its product deleted, its blocklist entry removed (the promo
 * code stays; codes cannot be deleted).
 */

const stamp = Date.now();
const SUPER_ADMIN = { email: `audra-${stamp}@example.com`, password: 'lavender rows 31' };
const PRODUCT = `E2E ${stamp} Audit Owl`;
const RENAMED = `${PRODUCT} Deluxe`;
const PROMO = `AUDIT${String(stamp).slice(-6)}`;
const BLOCKED_IP = '198.51.100.23';

async function logIn(page: Page) {
  await page.goto('/login');
  await page.getByLabel('Email').fill(SUPER_ADMIN.email);
  await page.getByLabel('Password', { exact: true }).fill(SUPER_ADMIN.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(/\/$/);
}

const entry = (page: Page, kind: string, target?: string) =>
  page.getByRole('listitem', { name: target ? `${kind} ${target}` : new RegExp(`^${kind} `) });

test.beforeAll(() => {
  createAccountWithCli(SUPER_ADMIN.email, SUPER_ADMIN.password, 'super_admin', 'Audra Audit');
});

test.afterAll(async ({ playwright }) => {
  const base = shopUrl();
  const api = await playwright.request.newContext({ baseURL: base });
  await apiLogIn(api, base, SUPER_ADMIN.email, SUPER_ADMIN.password);
  const products = (await (await api.get('/api/admin/products')).json()) as {
    id: number;
    name: string;
    archived: boolean;
  }[];
  for (const product of products.filter((p) => p.name.startsWith(PRODUCT) && !p.archived)) {
    const answer = await api.delete(`/api/admin/products/${product.id}`, {
      headers: { Origin: base },
    });
    expect(answer.status(), await answer.text()).toBe(200);
  }
  const blocklist = (await (await api.get('/api/admin/blocklist')).json()) as {
    entries: { id: number; value: string }[];
  };
  for (const block of blocklist.entries.filter((b) => b.value === BLOCKED_IP)) {
    await api.delete(`/api/admin/blocklist/${block.id}`, { headers: { Origin: base } });
  }
  await api.dispose();
});

test('every staff action of the admin pages shows up in the audit log', async ({
  page,
}, testInfo) => {
  test.slow();
  await logIn(page);

  // Product: create, then edit its price and name.
  await page.goto('/admin/products');
  await page.getByRole('textbox', { name: 'Name', exact: true }).fill(PRODUCT);
  await page.getByRole('textbox', { name: /^Category/ }).fill('Pets');
  await page.getByRole('textbox', { name: 'Price ($)', exact: true }).fill('12.5');
  await page.getByRole('textbox', { name: /^Stock/ }).fill('3');
  await page.getByRole('button', { name: 'Add Product' }).click();
  await expect(page.getByText(`${PRODUCT} created.`)).toBeVisible();
  const card = page.getByRole('article', { name: PRODUCT });
  await card.getByRole('button', { name: `Edit ${PRODUCT}` }).click();
  const dialog = page.getByRole('dialog', { name: `Edit ${PRODUCT}` });
  await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill(RENAMED);
  await dialog.getByRole('textbox', { name: 'Price ($)', exact: true }).fill('14');
  await dialog.getByRole('button', { name: 'Save changes' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('article', { name: RENAMED })).toBeVisible();
  const products = (await (await page.request.get('/api/admin/products')).json()) as {
    id: number;
    name: string;
  }[];
  const id = products.find((p) => p.name === RENAMED)?.id;
  expect(id).toBeDefined();
  const target = `product:${id}`;

  // Promo code, in its modal.
  await page.getByRole('button', { name: 'Add Promo Code' }).click();
  const promo = page.getByRole('dialog', { name: 'Add promo code' });
  await promo.getByRole('textbox', { name: /^Code/ }).fill(PROMO.toLowerCase());
  await promo.getByRole('textbox', { name: /^Discount/ }).fill('15');
  await promo.getByRole('button', { name: 'Create promo code' }).click();
  await expect(page.getByText('Promo code created successfully!')).toBeVisible();
  await expect(promo).toBeHidden();

  // Stock: type a number, then one more with plus.
  await page.goto('/admin/inventory');
  const box = page.getByRole('textbox', { name: RENAMED });
  await box.fill('8');
  await box.press('Enter');
  const row = page.getByRole('listitem').filter({ has: box });
  await expect(row.getByText('8 in Stock')).toBeVisible();
  await row.getByRole('button', { name: `One more ${RENAMED}` }).click();
  await expect(row.getByText('9 in Stock')).toBeVisible();

  // Blocklist: block an address, then unblock it.
  await page.goto('/admin/blocklist');
  await page.getByRole('combobox', { name: 'Kind' }).selectOption('ip');
  await page.getByRole('textbox', { name: 'Value' }).fill(BLOCKED_IP);
  await page.getByRole('textbox', { name: 'Reason' }).fill('card testing');
  await page.getByRole('button', { name: 'Add to blocklist' }).click();
  const blocked = page.getByRole('listitem', { name: `IP address ${BLOCKED_IP}` });
  await expect(blocked).toBeVisible();
  await blocked.getByRole('button', { name: /^Remove/ }).click();
  await page
    .getByRole('alertdialog', { name: 'Remove this entry?' })
    .getByRole('button', { name: 'Remove' })
    .click();
  await expect(blocked).toBeHidden();

  // The log, reached from the admin tools: every action above, newest first, by this staff
  // member, from this browser's address, with its values before and after.
  await page.goto('/admin/products');
  await page.getByRole('link', { name: 'Audit log' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Audit log' })).toBeVisible();
  const list = page.getByRole('list', { name: 'Audit log entries' });
  await expect(list).toBeVisible();

  const created = entry(page, 'Product created', target);
  await expect(created).toContainText(PRODUCT);
  await expect(created).toContainText('By Audra Audit');
  await expect(created).toContainText('from 127.0.0.1');
  const edited = entry(page, 'Product edited', target);
  await expect(edited).toContainText(`${PRODUCT} → ${RENAMED}`);
  await expect(edited).toContainText('12.50 → 14.00');
  await expect(entry(page, 'Stock set', target)).toContainText('3 → 8');
  await expect(entry(page, 'Stock changed', target)).toContainText('8 → 9');
  await expect(entry(page, 'Promo code created')).toContainText(PROMO);
  const block = entry(page, 'Blocked').filter({ hasText: BLOCKED_IP });
  await expect(block).toContainText('card testing');
  const unblock = entry(page, 'Unblocked').filter({ hasText: BLOCKED_IP });
  await expect(unblock).toBeVisible();
  // newest first: the unblock is above the block, the edit above the creation
  const names = await list
    .locator(':scope > li')
    .evaluateAll((items) => items.map((item) => item.getAttribute('aria-label')));
  const at = (name: string) => names.findIndex((n) => n === name);
  expect(at(`Product edited ${target}`)).toBeLessThan(at(`Product created ${target}`));
  expect(at(`Stock changed ${target}`)).toBeLessThan(at(`Stock set ${target}`));
  // the CLI made this account: recorded as the command line, without an address
  await expect(entry(page, 'Account created').first()).toContainText('By command line');

  await expectNoSeriousA11yViolations(page);
  await saveScreenshot(page, testInfo, 'admin-audit-1280');

  // The filter by kind: only stock changes, then everything again.
  await page.getByRole('combobox', { name: 'Kind' }).selectOption('stock.change');
  await expect(entry(page, 'Stock changed', target)).toBeVisible();
  await expect(entry(page, 'Product created', target)).toBeHidden();
  await expect(list.locator(':scope > li')).not.toHaveCount(0);
  const kinds = await list
    .locator(':scope > li')
    .evaluateAll((items) => items.map((item) => item.getAttribute('aria-label') ?? ''));
  expect(kinds.every((name) => name.startsWith('Stock changed '))).toBe(true);
  await saveScreenshot(page, testInfo, 'admin-audit-filtered-1280', { fullPage: false });
  await page
    .getByRole('form', { name: 'Filter the audit log' })
    .getByRole('button', { name: 'Clear filters' })
    .click();
  await expect(entry(page, 'Product created', target)).toBeVisible();

  // On a phone.
  await page.setViewportSize({ width: 375, height: 812 });
  await page.reload();
  await expect(entry(page, 'Product edited', target)).toBeVisible();
  await expectNoHorizontalScroll(page);
  await saveScreenshot(page, testInfo, 'admin-audit-375');
  await entry(page, 'Product edited', target).scrollIntoViewIfNeeded();
  await saveScreenshot(page, testInfo, 'admin-audit-entries-375', { fullPage: false });
});
