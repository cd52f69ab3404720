import { expect, test, type APIRequestContext } from './fixtures';

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
  setPrivateServerLink,
  shopUrl,
} from './helpers';

/**
 * Keeping the money, against the real server with the dev payment provider (no Stripe keys):
 * the checkout links the refund policy beside Complete Payment, the buyer confirms "I got my
 * items" after the delivery, the dev payment page plays the bank and opens a dispute, and a
 * super_admin finds it on /admin/disputes with its delivery record staged as evidence, opens
 * the PDFs and submits it. Works on a product of its own, taken off the shop afterwards.
 */

const stamp = Date.now();
const BOSS = { email: `dora-${stamp}@example.com`, password: 'marigold path 42' };
const STAFF = { email: `sid-${stamp}@example.com`, password: 'tulip bed 73' };
const PRODUCT = `E2E ${stamp} Disputed Fox`;

let productId = 0;

async function loggedIn(
  playwright: { request: { newContext: (o: { baseURL: string }) => Promise<APIRequestContext> } },
  baseURL: string,
  who: { email: string; password: string },
): Promise<APIRequestContext> {
  const api = await playwright.request.newContext({ baseURL });
  await apiLogIn(api, baseURL, who.email, who.password);
  return api;
}

test.beforeAll(async ({ playwright }) => {
  createAccountWithCli(BOSS.email, BOSS.password, 'super_admin', 'Dora Disputes');
  createAccountWithCli(STAFF.email, STAFF.password, 'admin', 'Sid Staff');
  const base = shopUrl();
  const api = await loggedIn(playwright, base, BOSS);
  const created = await api.post('/api/admin/products', {
    multipart: {
      name: PRODUCT,
      price: '6.25',
      category: 'Pets',
      description: 'Made by the disputes browser test.',
      stock: '5',
    },
    headers: { Origin: base },
  });
  expect(created.status(), await created.text()).toBe(201);
  productId = ((await created.json()) as { id: number }).id;
  await api.dispose();
});

/**
 * A dispute blocks the buyer's Discord account and address, which the other browser tests share
 * (the demo Discord accounts, 127.0.0.1): the operator takes the chargeback's entries off the
 * blocklist.
 */
async function removeChargebackBlocks(api: APIRequestContext, base: string) {
  const list = (await (await api.get('/api/admin/blocklist')).json()) as {
    entries: { id: number; reason: string }[];
  };
  for (const entry of list.entries.filter((e) => e.reason.startsWith('chargeback on order #'))) {
    const removed = await api.delete(`/api/admin/blocklist/${entry.id}`, {
      headers: { Origin: base },
    });
    expect(removed.status(), await removed.text()).toBe(204);
  }
}

/** The orders the tests leave paid (back in the queue): refunded in the end. */
const toRefund: number[] = [];

test.afterAll(async ({ playwright }) => {
  const base = shopUrl();
  const api = await loggedIn(playwright, base, BOSS);
  await removeChargebackBlocks(api, base);
  // and the released order leaves the queue the other tests count
  for (const id of toRefund) {
    const refunded = await api.post(`/api/admin/orders/${id}/refund`, {
      data: {},
      headers: { Origin: base },
    });
    expect(refunded.status(), await refunded.text()).toBe(200);
  }
  const answer = await api.delete(`/api/admin/products/${productId}`, {
    headers: { Origin: base },
  });
  expect(answer.status(), await answer.text()).toBe(200);
  await api.dispose();
});

test('a delivered order is disputed, and a super_admin submits its delivery record', async ({
  page,
  browser,
  playwright,
  request,
}, testInfo) => {
  test.slow();
  const base = shopUrl();

  // The checkout links the refund policy beside Complete Payment.
  await openCheckoutWith(page, request, [[productId, 1]]);
  await linkDiscord(page);
  await fillDetails(page, 'DisputeFan_7');
  const policy = page
    .getByTestId('checkout-refund-policy')
    .getByRole('link', { name: /^Refund Policy/ });
  await expect(policy).toHaveAttribute('href', '/refund-policy');
  await expect(policy).toHaveAttribute('target', '_blank');
  const orderId = await payByCardOnDevPage(page);
  await page.getByRole('button', { name: 'Pay' }).click();
  await expect(page).toHaveURL(new RegExp(`/success\\?order_id=${orderId}$`));

  // Staff claim it and deliver it.
  const staff = await loggedIn(playwright, base, STAFF);
  await setPrivateServerLink(staff, base);
  for (const step of ['claim', 'deliver']) {
    const answer = await staff.post(`/api/admin/orders/${orderId}/${step}`, {
      data: step === 'deliver' ? { proof_id: null } : {},
      headers: { Origin: base },
    });
    expect(answer.status(), await answer.text()).toBe(200);
  }
  await staff.dispose();

  // The buyer says the items arrived, once.
  await page.setViewportSize({ width: 375, height: 812 });
  await page.goto(`/orders/${orderId}`);
  await expect(page.getByTestId('order-page-status')).toHaveText('Delivered');
  await page.getByRole('button', { name: 'I got my items' }).click();
  await expect(page.getByText(/You confirmed you got your items on/)).toBeVisible();
  await expect(page.getByRole('button', { name: 'I got my items' })).toHaveCount(0);
  await expectNoHorizontalScroll(page);
  await saveScreenshot(page, testInfo, 'order-page-received-375');

  // The card's issuer warns of fraud first (the dev payment page plays Stripe): the order is
  // delivered, so nothing is held and the evidence is prepared for the dispute that may follow.
  await page.goto(`/dev/pay/${orderId}`);
  await saveScreenshot(page, testInfo, 'dev-pay-bank-375');
  await page.getByRole('button', { name: 'Send a fraud warning' }).click();
  await expect(page).toHaveURL(new RegExp(`/dev/pay/${orderId}$`));
  const warnedBoss = await loggedIn(playwright, base, BOSS);
  await expect
    .poll(async () => {
      const list = (await (await warnedBoss.get('/api/admin/fraud-warnings')).json()) as {
        order_id: number;
        evidence: string;
      }[];
      return list.find((w) => w.order_id === orderId)?.evidence;
    })
    .toBe('prepared');
  await warnedBoss.dispose();

  // Then the card holder's bank disputes it.
  await page.getByRole('button', { name: 'Open a dispute' }).click();
  await expect(page).toHaveURL(new RegExp(`/dev/pay/${orderId}$`));
  await expect(page.getByText('This order is disputed')).toBeVisible();
  await page.goto(`/orders/${orderId}`);
  await expect(page.getByTestId('order-page-status')).toHaveText('Disputed');

  // The shop stages the delivery record by itself: wait for it, then look at the page.
  const boss = await loggedIn(playwright, base, BOSS);
  const disputeId = `dp_dev_${orderId}`;
  await expect
    .poll(async () => {
      const list = (await (await boss.get('/api/admin/disputes')).json()) as {
        dispute_id: string;
        evidence: string;
      }[];
      return list.find((d) => d.dispute_id === disputeId)?.evidence;
    })
    .toBe('staged');
  const pdf = await boss.get(`/api/admin/disputes/${disputeId}/evidence/service_documentation`);
  expect(pdf.status()).toBe(200);
  expect(pdf.headers()['content-type']).toBe('application/pdf');
  expect((await pdf.body()).subarray(0, 5).toString()).toBe('%PDF-');
  await removeChargebackBlocks(boss, base);
  await boss.dispose();

  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const admin = await context.newPage();
  try {
    await admin.goto('/login');
    await admin.getByLabel('Email').fill(BOSS.email);
    await admin.getByLabel('Password', { exact: true }).fill(BOSS.password);
    await admin.getByRole('button', { name: 'Log in' }).click();
    await expect(admin).toHaveURL(/\/$/);
    await admin.goto('/admin/products');
    await admin
      .getByRole('navigation', { name: 'Admin tools' })
      .getByRole('link', { name: 'Disputes' })
      .click();
    await expect(admin).toHaveURL(/\/admin\/disputes$/);
    const entry = admin
      .getByRole('list', { name: 'Disputes' })
      .getByRole('listitem', { name: `Order #${orderId}` });
    await expect(entry).toContainText('Evidence staged: review it');
    await expect(entry).toContainText('$6.');
    for (const label of ['Delivery record', 'Messages', 'Refund policy']) {
      await expect(
        entry.getByRole('link', { name: new RegExp(`^${label} \\(PDF\\)`) }),
      ).toHaveAttribute('href', new RegExp(`/api/admin/disputes/${disputeId}/evidence/`));
    }
    // The fraud warning before the dispute shows with the evidence prepared for it.
    const warned = admin
      .getByRole('list', { name: 'Fraud warnings on delivered orders' })
      .getByRole('listitem', { name: `Order #${orderId}` });
    await expect(warned).toContainText('Fraud warning');
    await expect(warned).toContainText('Evidence ready at Stripe');
    await expect(warned.getByRole('link', { name: /^Delivery record \(PDF\)/ })).toHaveAttribute(
      'href',
      `/api/admin/fraud-warnings/${orderId}/evidence/service_documentation`,
    );
    await expectNoSeriousA11yViolations(admin);
    await saveScreenshot(admin, testInfo, 'admin-disputes-1280');
    await admin.setViewportSize({ width: 375, height: 812 });
    await expectNoHorizontalScroll(admin);
    await saveScreenshot(admin, testInfo, 'admin-disputes-375');
    await admin.setViewportSize({ width: 1280, height: 800 });

    await entry.getByRole('button', { name: 'Submit evidence' }).click();
    const form = admin.getByRole('form', { name: 'Submit evidence' });
    await form
      .getByLabel(/Note to the bank/)
      .fill('The buyer confirmed receipt on the order page.');
    await form.getByRole('button', { name: 'Submit evidence' }).click();
    await expect(entry).toContainText('Evidence submitted');
    await expect(entry.getByRole('button', { name: 'Submit evidence' })).toHaveCount(0);
    await expect(entry).toContainText('Note to the bank: The buyer confirmed receipt');

    // The owner's numbers: the dispute counts on the sales dashboard, with the rate and its line.
    await admin.goto('/admin/products');
    await admin.getByRole('button', { name: 'Sales Dashboard' }).click();
    const figures = admin
      .getByRole('dialog', { name: 'Sales Dashboard' })
      .getByRole('region', { name: 'Disputes' });
    await expect(figures.getByRole('definition').first()).not.toHaveText('0');
    await expect(figures.getByTestId('dispute-rate')).toContainText('Warning line: 0.75 %');
    await figures.scrollIntoViewIfNeeded();
    await saveScreenshot(admin, testInfo, 'admin-dashboard-disputes-1280', { fullPage: false });
  } finally {
    await context.close();
  }

  await expectInAuditLog(browser, BOSS, [
    { name: `Dispute evidence submitted dispute:${disputeId}`, texts: ['By Dora Disputes'] },
  ]);
});

test('a fraud warning holds a paid order out of the queue until a super_admin releases it', async ({
  page,
  browser,
  request,
}, testInfo) => {
  test.slow();
  // A guest buyer pays; the card's issuer warns of fraud before anyone delivers it.
  await openCheckoutWith(page, request, [[productId, 1]]);
  await linkDiscord(page);
  await fillDetails(page, 'WarnedFan_2');
  const orderId = await payByCardOnDevPage(page);
  toRefund.push(orderId);
  await page.getByRole('button', { name: 'Pay' }).click();
  await expect(page).toHaveURL(new RegExp(`/success\\?order_id=${orderId}$`));
  await page.goto(`/dev/pay/${orderId}`);
  await page.getByRole('button', { name: 'Send a fraud warning' }).click();
  await expect(page).toHaveURL(new RegExp(`/dev/pay/${orderId}$`));

  // The buyer is told only that the payment is being checked.
  await page.setViewportSize({ width: 375, height: 812 });
  await page.goto(`/orders/${orderId}`);
  await expect(page.getByText(/We're checking this payment before delivery/)).toBeVisible();
  await expect(page.getByTestId('queue-position')).toHaveCount(0);
  await expect(page.getByRole('button', { name: "I'm in the game" })).toHaveCount(0);
  await expectNoHorizontalScroll(page);
  await saveScreenshot(page, testInfo, 'order-page-being-checked-375');

  // A super_admin finds it under Held, not in the queue, and releases it.
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const admin = await context.newPage();
  try {
    await admin.goto('/login');
    await admin.getByLabel('Email').fill(BOSS.email);
    await admin.getByLabel('Password', { exact: true }).fill(BOSS.password);
    await admin.getByRole('button', { name: 'Log in' }).click();
    await expect(admin).toHaveURL(/\/$/);
    await admin.goto('/admin/orders');
    const card = admin
      .getByRole('list', { name: 'Orders' })
      .getByRole('listitem')
      .filter({ has: admin.getByRole('heading', { name: `Order #${orderId}` }) });
    await expect(admin.getByRole('heading', { level: 1, name: 'Orders to deliver' })).toBeVisible();
    await expect(card).toHaveCount(0);
    await admin
      .getByRole('group', { name: 'Show orders' })
      .getByRole('button', { name: 'Held' })
      .click();
    await expect(card).toContainText('WarnedFan_2');
    await expect(card).toContainText(/fraud warning/i);
    await expectNoSeriousA11yViolations(admin);
    await saveScreenshot(admin, testInfo, 'admin-orders-held-1280');
    await admin.setViewportSize({ width: 375, height: 812 });
    await expectNoHorizontalScroll(admin);
    await saveScreenshot(admin, testInfo, 'admin-orders-held-375');
    await admin.setViewportSize({ width: 1280, height: 800 });

    await card.getByRole('button', { name: 'Release to queue' }).click();
    await expect(card).toHaveCount(0);
    await admin
      .getByRole('group', { name: 'Show orders' })
      .getByRole('button', { name: 'Paid' })
      .click();
    await expect(card).toContainText('WarnedFan_2');
    await expect(card.getByRole('button', { name: 'Claim' })).toBeEnabled();
  } finally {
    await context.close();
  }

  await expectInAuditLog(browser, BOSS, [
    { name: `Held order released to the queue order:${orderId}`, texts: ['By Dora Disputes'] },
  ]);
});
