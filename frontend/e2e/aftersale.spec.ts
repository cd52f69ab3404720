import { expect, test, type APIRequestContext, type Page } from './fixtures';

import {
  apiLogIn,
  createAccountWithCli,
  expectInAuditLog,
  expectNoHorizontalScroll,
  expectNoSeriousA11yViolations,
  fillDetails,
  linkDiscord,
  openCheckoutWith,
  payByCardOnDevPage,
  saveScreenshot,
  shopUrl,
} from './helpers';

/**
 * After the sale, against the real server with the dev payment provider: staff refund a paid
 * order from the queue (the dev provider refunds at once) and the buyer's order turns Refunded;
 * a super_admin blocks a Roblox username on /admin/blocklist, checkout refuses it, and the entry
 * is removed again. Works on a product of its own, taken off the shop afterwards.
 */

const stamp = Date.now();
const SUPER_ADMIN = { email: `bea-${stamp}@example.com`, password: 'hollyhock hedge 19' };
const STAFF = { email: `rico-${stamp}@example.com`, password: 'sunflower seed 88' };
const PRODUCT = `E2E ${stamp} Refundable Bee`;
const BLOCKED_NAME = `Blocked${String(stamp).slice(-6)}`;

let productId = 0;

async function superAdminApi(
  playwright: { request: { newContext: (o: { baseURL: string }) => Promise<APIRequestContext> } },
  baseURL: string,
): Promise<APIRequestContext> {
  const api = await playwright.request.newContext({ baseURL });
  await apiLogIn(api, baseURL, SUPER_ADMIN.email, SUPER_ADMIN.password);
  return api;
}

async function logIn(page: Page, email: string, password: string) {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(/\/$/);
}

test.beforeAll(async ({ playwright }) => {
  createAccountWithCli(SUPER_ADMIN.email, SUPER_ADMIN.password, 'super_admin', 'Bea Boss');
  createAccountWithCli(STAFF.email, STAFF.password, 'admin', 'Rico Runner');
  const base = shopUrl();
  const api = await superAdminApi(playwright, base);
  const created = await api.post('/api/admin/products', {
    multipart: {
      name: PRODUCT,
      price: '4.75',
      category: 'Pets',
      description: 'Made by the after-sale browser test.',
      stock: '5',
    },
    headers: { Origin: base },
  });
  expect(created.status(), await created.text()).toBe(201);
  productId = ((await created.json()) as { id: number }).id;
  await api.dispose();
});

test.afterAll(async ({ playwright }) => {
  const base = shopUrl();
  const api = await superAdminApi(playwright, base);
  // ordered, so archived: off the shop either way
  const answer = await api.delete(`/api/admin/products/${productId}`, {
    headers: { Origin: base },
  });
  expect(answer.status(), await answer.text()).toBe(200);
  await api.dispose();
});

test('staff refund a paid order from the queue and the buyer sees Refunded', async ({
  page,
  browser,
  request,
}, testInfo) => {
  test.slow();
  // A guest buyer pays on the dev payment page.
  await openCheckoutWith(page, request, [[productId, 1]]);
  await linkDiscord(page);
  await fillDetails(page, 'RefundFan_3');
  const orderId = await payByCardOnDevPage(page);
  await page.getByRole('button', { name: 'Pay' }).click();
  await expect(page).toHaveURL(new RegExp(`/success\\?order_id=${orderId}$`));
  await expect(page.getByTestId('order-page-status')).toHaveText('Paid');

  const staffContext = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const staff = await staffContext.newPage();
  try {
    await logIn(staff, STAFF.email, STAFF.password);
    await staff.goto('/admin/orders');
    const card = staff
      .getByRole('list', { name: 'Orders' })
      .getByRole('listitem')
      .filter({ has: staff.getByRole('heading', { name: `Order #${orderId}` }) });
    await expect(card).toContainText('RefundFan_3');
    await card.getByRole('button', { name: 'Refund' }).click();
    const dialog = staff.getByRole('alertdialog', { name: `Refund order #${orderId}?` });
    await expect(dialog).toContainText('goes back to the buyer through the payment provider');
    await expectNoSeriousA11yViolations(staff);
    await saveScreenshot(staff, testInfo, 'admin-refund-dialog-1280', { fullPage: false });
    await dialog.getByRole('button', { name: /^Refund \$/ }).click();
    await expect(staff.getByText(`Order #${orderId} refunded.`)).toBeVisible();
    await expect(card).toHaveCount(0); // no longer waiting
    await staff
      .getByRole('group', { name: 'Show orders' })
      .getByRole('button', { name: 'All' })
      .click();
    await expect(card).toContainText('Refunded');
    await expect(card.getByRole('button', { name: 'Refund' })).toHaveCount(0);

    await staff.setViewportSize({ width: 375, height: 812 });
    await expectNoHorizontalScroll(staff);
    await saveScreenshot(staff, testInfo, 'admin-orders-refunded-375');
  } finally {
    await staffContext.close();
  }

  await expectInAuditLog(browser, SUPER_ADMIN, [
    { name: `Order refunded order:${orderId}`, texts: ['By Rico Runner'] },
  ]);

  await page.reload();
  await expect(page.getByTestId('order-page-status')).toHaveText('Refunded');
});

test('a super_admin blocks a Roblox username, checkout refuses it, and the entry is removed', async ({
  page,
  browser,
  request,
  consoleErrors,
}, testInfo) => {
  test.slow();
  consoleErrors.expectAnswer(403, '/api/stripe/checkout', 'the checkout refuses the blocked name');
  await logIn(page, SUPER_ADMIN.email, SUPER_ADMIN.password);
  await page.goto('/admin/products');
  await page
    .getByRole('navigation', { name: 'Admin tools' })
    .getByRole('link', { name: 'Blocklist' })
    .click();
  await expect(page).toHaveURL(/\/admin\/blocklist$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Blocklist' })).toBeVisible();

  await page.getByLabel('Kind').selectOption('roblox_username');
  await page.getByRole('textbox', { name: 'Value' }).fill(BLOCKED_NAME.toUpperCase());
  await page.getByRole('textbox', { name: 'Reason' }).fill('Test: card testing from this account');
  await page.getByRole('button', { name: 'Add to blocklist' }).click();
  const entry = page
    .getByRole('list', { name: 'Blocked' })
    .getByRole('listitem', { name: `Roblox username ${BLOCKED_NAME.toLowerCase()}` });
  await expect(entry).toBeVisible();
  await expect(entry).toContainText('Added by Bea Boss');
  await expectNoSeriousA11yViolations(page);
  await saveScreenshot(page, testInfo, 'admin-blocklist-1280');
  await page.setViewportSize({ width: 375, height: 812 });
  await expectNoHorizontalScroll(page);
  await saveScreenshot(page, testInfo, 'admin-blocklist-375');
  await page.setViewportSize({ width: 1280, height: 800 });

  // A guest with that name is refused, without being told why.
  const buyerContext = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const buyer = await buyerContext.newPage();
  try {
    await openCheckoutWith(buyer, request, [[productId, 1]]);
    await linkDiscord(buyer);
    await fillDetails(buyer, BLOCKED_NAME);
    await buyer.getByRole('button', { name: 'Complete Payment' }).click();
    await buyer
      .getByRole('dialog', { name: 'Choose a payment method' })
      .getByRole('button', { name: /Card/ })
      .click();
    await expect(
      buyer.getByText("We can't take this order. Please contact support.").first(),
    ).toBeVisible();
    await expect(buyer).toHaveURL(/\/checkout/);
  } finally {
    await buyerContext.close();
  }

  await entry.getByRole('button', { name: /^Remove/ }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Remove this entry?' });
  await dialog.getByRole('button', { name: 'Remove' }).click();
  await expect(entry).toHaveCount(0);
  const list = await page.request.get('/api/admin/blocklist');
  const body = (await list.json()) as { entries: { value: string }[] };
  expect(body.entries.map((e) => e.value)).not.toContain(BLOCKED_NAME.toLowerCase());
});
