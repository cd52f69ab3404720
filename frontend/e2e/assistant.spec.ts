import { expect, test, type Page } from './fixtures';

import {
  apiLogIn,
  createAccountWithCli,
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
 * Issue 34 item 8: after paying, "where is my order?" in the help chat answers with the delivery
 * script and a link to the buyer's own order page, which opens in place.
 */

const stamp = Date.now();
const OWNER = { email: `ask-owner-${stamp}@example.com`, password: 'owner password 7' };

test.beforeAll(() => {
  createAccountWithCli(OWNER.email, OWNER.password, 'super_admin', 'Asta Asker');
});

const helpChat = (page: Page) => page.getByRole('dialog', { name: 'Help chat' });
const conversation = (page: Page) => helpChat(page).getByRole('log', { name: 'Conversation' });

test('after paying, the assistant links the buyer’s own order and tells the steps', async ({
  page,
  playwright,
  request,
}, testInfo) => {
  test.slow(); // a checkout, the home page's images and two screenshots on a debug build
  // a product of its own, so the demo catalog's stock stays as the other specs expect it
  const base = shopUrl();
  const owner = await playwright.request.newContext({ baseURL: base });
  await apiLogIn(owner, base, OWNER.email, OWNER.password);
  const created = await owner.post('/api/admin/products', {
    multipart: {
      name: `Asked ${stamp} Fox`,
      price: '6.50',
      category: 'Pets',
      description: 'Made by the assistant browser test.',
      stock: '3',
    },
    headers: { Origin: base },
  });
  expect(created.status(), await created.text()).toBe(201);
  const product = (await created.json()) as { id: number };
  await owner.dispose();
  await openCheckoutWith(page, request, [[product.id, 1]]);
  await linkDiscord(page);
  await fillDetails(page);
  const orderId = await payByCardOnDevPage(page);
  await page.getByRole('button', { name: 'Pay' }).click();
  await expect(page).toHaveURL(/\/success/);

  await page.goto('/');
  await page.getByRole('button', { name: 'Chat with us' }).click();
  const box = helpChat(page).getByRole('textbox', { name: 'Message' });
  await box.fill('where is my order?');
  await box.press('Enter');
  const reply = conversation(page).locator('.message--theirs').last();
  const link = reply.getByRole('link', { name: new RegExp(`/orders/${orderId}$`) });
  await expect(link).toBeVisible();
  await expect(reply).toContainText(`order #${orderId} (`);
  await expect(reply).toContainText("Press “I'm in the game”: On your order page");
  await expectNoSeriousA11yViolations(page);
  // the answer from its start: the link first, then the numbered steps
  const fromItsStart = () => reply.evaluate((node) => node.scrollIntoView({ block: 'start' }));
  await fromItsStart();
  await saveScreenshot(page, testInfo, 'assistant-order-link-1280', { fullPage: false });
  await page.setViewportSize({ width: 375, height: 740 });
  await expectNoHorizontalScroll(page);
  await fromItsStart();
  await saveScreenshot(page, testInfo, 'assistant-order-link-375', { fullPage: false });

  // the link opens the order's page in place (this browser placed it: no key needed)
  await link.click();
  await expect(page).toHaveURL(new RegExp(`/orders/${orderId}$`));
  await expect(page.getByRole('heading', { level: 1 })).toContainText(`${orderId}`);
});
