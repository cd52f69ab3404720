import { expect, test, type APIRequestContext, type Page } from './fixtures';

import {
  apiLogIn,
  createAccountWithCli,
  expectNoHorizontalScroll,
  expectNoSeriousA11yViolations,
  fillDetails,
  linkDiscord,
  openCheckoutWith,
  outboxFiles,
  payByCardOnDevPage,
  saveScreenshot,
  setPrivateServerLink,
  shopUrl,
  waitForMail,
} from './helpers';

/**
 * A line between the buyer and their member of staff (issue 34 item 5), in two browsers: the
 * buyer's order page opened from the receipt's link on a phone, and the staff queue on a laptop.
 * Once the order is claimed the buyer taps "I can't join the server"; it appears on the staff
 * card without a reload; staff answer from the card and the answer appears on the buyer's page
 * the same way. Each side waits for the other's message to show, never for the clock.
 */

const stamp = Date.now();
const BOSS = { email: `messages-boss-${stamp}@example.com`, password: 'messages boss password' };
const STAFF = { email: `messages-staff-${stamp}@example.com`, password: 'messages staff password' };
const STAFF_NAME = 'Mira Moss';
const PRODUCT = `E2E ${stamp} Message Magpie`;
const ROBLOX = 'MessageFan_7';
const ANSWER = 'Sent you a friend request, join from my profile <b>now</b>';

let productId = 0;

async function bossApi(
  playwright: { request: { newContext: (o: { baseURL: string }) => Promise<APIRequestContext> } },
  baseURL: string,
): Promise<APIRequestContext> {
  const api = await playwright.request.newContext({ baseURL });
  await apiLogIn(api, baseURL, BOSS.email, BOSS.password);
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
  createAccountWithCli(BOSS.email, BOSS.password, 'super_admin', 'Max Boss');
  createAccountWithCli(STAFF.email, STAFF.password, 'admin', STAFF_NAME);
  const base = shopUrl();
  const boss = await bossApi(playwright, base);
  const created = await boss.post('/api/admin/products', {
    multipart: {
      name: PRODUCT,
      price: '2.50',
      category: 'Pets',
      description: 'Made by the order messages browser test.',
      stock: '3',
    },
    headers: { Origin: base },
  });
  expect(created.status(), await created.text()).toBe(201);
  productId = ((await created.json()) as { id: number }).id;
  await boss.dispose();
});

test.afterAll(async ({ playwright }) => {
  const base = shopUrl();
  const boss = await bossApi(playwright, base);
  const answer = await boss.delete(`/api/admin/products/${productId}`, {
    headers: { Origin: base },
  });
  expect(answer.status(), await answer.text()).toBe(200);
  await boss.dispose();
});

test('a message each way between the buyer’s order page and the staff queue, live', async ({
  page,
  browser,
  request,
}, testInfo) => {
  test.setTimeout(180_000);
  const base = shopUrl();

  // A guest pays; the receipt carries the order's link.
  await openCheckoutWith(page, request, [[productId, 1]]);
  await linkDiscord(page);
  await fillDetails(page, ROBLOX);
  const beforeReceipt = outboxFiles();
  const orderId = await payByCardOnDevPage(page);
  await page.getByRole('button', { name: 'Pay' }).click();
  await expect(page).toHaveURL(new RegExp(`/success\\?order_id=${orderId}$`));
  const receipt = await waitForMail('buyer@example.com', beforeReceipt);
  const link = new RegExp(`(https?://\\S+/orders/${orderId}\\?key=[0-9a-f]{32})`).exec(
    receipt.text,
  )?.[1];
  if (!link) throw new Error(`No order link in the receipt:\n${receipt.text}`);
  const orderUrl = new URL(link);
  const orderPath = `${orderUrl.pathname}${orderUrl.search}`;

  const buyerContext = await browser.newContext({ viewport: { width: 375, height: 900 } });
  const staffContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  try {
    // The buyer's phone: only the link. The panel is there from the start.
    const buyer = await buyerContext.newPage();
    const orderStream = buyer.waitForResponse(
      (response) =>
        new URL(response.url()).pathname === '/api/events' &&
        new URL(response.url()).searchParams.get('order') === String(orderId),
    );
    await buyer.goto(orderPath);
    await expect(buyer.getByRole('heading', { level: 1, name: `Order #${orderId}` })).toBeVisible();
    const panel = buyer.getByRole('region', { name: 'Messages', exact: true });
    await expect(panel.getByText('No messages yet.')).toBeVisible();
    expect((await orderStream).status()).toBe(200);
    // "I can't join the server" is offered once someone has the order
    const cannotJoin = panel.getByRole('button', { name: "I can't join the server" });
    await expect(cannotJoin).toHaveCount(0);

    // Staff claim it from the queue.
    const staff = await staffContext.newPage();
    await logIn(staff, STAFF.email, STAFF.password);
    await setPrivateServerLink(staff.request, base);
    await staff.goto('/admin/orders');
    const card = staff
      .getByRole('list', { name: 'Orders' })
      .getByRole('listitem')
      .filter({ has: staff.getByRole('heading', { name: `Order #${orderId}` }) });
    await card.getByRole('button', { name: 'Claim' }).click();
    await expect(card.getByText('You are delivering this order.')).toBeVisible();
    const toggle = card.getByRole('button', { name: /^Messages \(\d+\)/ });
    await expect(toggle).toHaveAccessibleName(/^Messages \(0\)/);

    // The buyer: one tap. The staff card hears it without a reload.
    await expect(cannotJoin).toBeVisible();
    await cannotJoin.click();
    await expect(panel.getByTestId('order-message')).toHaveCount(1);
    await expect(panel.getByTestId('order-message')).toContainText("I can't join the server");
    await expect(toggle).toHaveAccessibleName(/^Messages \(1\)/);
    await expect(toggle).toContainText('Buyer wrote');
    await toggle.click();
    const thread = card.getByRole('list', { name: `Messages of order #${orderId}` });
    await expect(thread.getByText("I can't join the server")).toBeVisible();
    await expect(thread.getByText(ROBLOX)).toBeVisible();

    // Staff answer from the card; the buyer's page shows it without a reload.
    await card.getByRole('textbox', { name: 'Reply to the buyer' }).fill(ANSWER);
    await card.getByRole('button', { name: 'Send' }).click();
    await expect(thread.getByText(ANSWER)).toBeVisible();
    await expect(panel.getByText(ANSWER)).toBeVisible();
    await expect(panel.getByText(`${STAFF_NAME} (staff)`)).toBeVisible();
    // typed text is shown as text, never as markup
    expect(await panel.locator('b').count()).toBe(0);

    // And the buyer types an answer of their own.
    await panel.getByRole('textbox', { name: 'Message to staff' }).fill('Got it, joining now');
    await panel.getByRole('button', { name: 'Send' }).click();
    await expect(thread.getByText('Got it, joining now')).toBeVisible();
    await expect(panel.getByRole('textbox', { name: 'Message to staff' })).toHaveValue('');

    // How it looks, on a phone and on a laptop, on both sides.
    await panel.scrollIntoViewIfNeeded();
    await expectNoHorizontalScroll(buyer);
    await expectNoSeriousA11yViolations(buyer);
    await saveScreenshot(buyer, testInfo, 'order-messages-buyer-375');
    await buyer.setViewportSize({ width: 1280, height: 900 });
    await expectNoHorizontalScroll(buyer);
    await saveScreenshot(buyer, testInfo, 'order-messages-buyer-1280');

    await card.scrollIntoViewIfNeeded();
    await expectNoSeriousA11yViolations(staff);
    await saveScreenshot(staff, testInfo, 'order-messages-staff-1280');
    await staff.setViewportSize({ width: 375, height: 900 });
    await expectNoHorizontalScroll(staff);
    await card.scrollIntoViewIfNeeded();
    await saveScreenshot(staff, testInfo, 'order-messages-staff-375');
  } finally {
    await buyerContext.close();
    await staffContext.close();
  }
});
