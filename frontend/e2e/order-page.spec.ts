import { expect, test, type APIRequestContext } from './fixtures';

import {
  apiLogIn,
  createAccountWithCli,
  expectChatButtonStepsAside,
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
 * After the sale: a guest buys on the dev payment page, the receipt reaches the outbox, its link
 * opens the order in a browser that never saw the shop (timeline, place in the queue), staff
 * deliver it, the page and a second mail say Delivered, and the buyer's five stars show on
 * /reviews and on the product's page, until staff hide the review there.
 */

const BOSS = { email: 'orderpage-boss@example.com', password: 'orderpage boss password' };
const STAFF = { email: 'orderpage-staff@example.com', password: 'orderpage staff password' };
const PRODUCT = 'E2E Receipt Owl';

async function loggedIn(
  playwright: { request: { newContext: (o: { baseURL: string }) => Promise<APIRequestContext> } },
  baseURL: string,
  who: { email: string; password: string },
): Promise<APIRequestContext> {
  const api = await playwright.request.newContext({ baseURL });
  await apiLogIn(api, baseURL, who.email, who.password);
  return api;
}

test.beforeAll(() => {
  createAccountWithCli(BOSS.email, BOSS.password, 'super_admin', 'Bo Boss');
  createAccountWithCli(STAFF.email, STAFF.password, 'admin', 'Stan Staff');
});

test('a guest opens the receipt link in a new browser and follows the order to Delivered', async ({
  playwright,
  page,
  browser,
  request,
  consoleErrors,
}, testInfo) => {
  consoleErrors.expectAnswer(404, /\/api\/orders\/\d+/, 'the order without its key');
  consoleErrors.expectAnswer(409, /\/api\/orders\/\d+\/review/, 'a second review of the order');
  test.slow();
  const base = shopUrl();
  const boss = await loggedIn(playwright, base, BOSS);
  const created = await boss.post('/api/admin/products', {
    multipart: {
      name: PRODUCT,
      price: '4.50',
      category: 'Pets',
      description: 'Made by the after-sale browser test.',
      stock: '5',
    },
    headers: { Origin: base },
  });
  expect(created.status(), await created.text()).toBe(201);
  const product = (await created.json()) as { id: number };

  try {
    // A guest buys two on the dev payment page.
    await openCheckoutWith(page, request, [[product.id, 2]]);
    await linkDiscord(page);
    await fillDetails(page, 'ReceiptFan_3');
    const seen = outboxFiles();
    const orderId = await payByCardOnDevPage(page);
    await page.getByRole('button', { name: 'Pay' }).click();
    await expect(page).toHaveURL(new RegExp(`/success\\?order_id=${orderId}$`));
    // the checkout answered the order's link key, which this tab keeps for /success
    await expect(page.getByRole('link', { name: 'Follow your order' })).toHaveAttribute(
      'href',
      new RegExp(`^/orders/${orderId}\\?key=[0-9a-f]{32}$`),
    );

    // The receipt, with the order's link.
    const receipt = await waitForMail(
      'buyer@example.com',
      seen,
      `Your Garden Shop receipt for order #${orderId}`,
    );
    expect(receipt.text).toContain(`2 × ${PRODUCT}  $9.00`);
    expect(receipt.text).toContain('Roblox username: ReceiptFan_3');
    expect(receipt.text).toContain('Processing fee: $');
    expect(receipt.html).toContain('Follow your order');
    const link = new RegExp(`(https?://\\S+/orders/${orderId}\\?key=[0-9a-f]{32})`).exec(
      receipt.text,
    )?.[1];
    if (!link) throw new Error(`No order link in the receipt:\n${receipt.text}`);
    const url = new URL(link);
    const orderPath = `${url.pathname}${url.search}`;

    // A new browser (another device: no cookie, no storage) opens it, on a phone and wide.
    for (const width of [375, 1280]) {
      const context = await browser.newContext({ viewport: { width, height: 900 } });
      const phone = await context.newPage();
      try {
        await phone.goto(orderPath);
        await expect(
          phone.getByRole('heading', { level: 1, name: `Order #${orderId}` }),
        ).toBeVisible();
        await expect(phone.getByTestId('order-page-status')).toHaveText('Paid');
        await expect(phone.getByTestId('queue-position')).toContainText(
          /(\d+ orders? before yours|Yours is next in line) in the delivery queue/,
        );
        const progress = phone.getByRole('list', { name: 'Order progress' });
        await expect(progress.getByRole('listitem')).toHaveText([
          /^Paid/,
          /^In the queueNow(\d+ orders? before yours|Yours is next in line) in the delivery queue$/,
          /^Staff on the wayNot yet$/,
          /^DeliveredNot yet$/,
        ]);
        await expect(phone.getByText(`2 × ${PRODUCT}`)).toBeVisible();
        await expect(phone.getByText('ReceiptFan_3')).toBeVisible();
        await expectNoHorizontalScroll(phone);
        await expectNoSeriousA11yViolations(phone);
        await saveScreenshot(phone, testInfo, `order-page-paid-${width}`);
        // the Roblox name is never under the chat button (issue 23)
        const robloxName = phone
          .locator('.order-page__amounts dd')
          .filter({ hasText: 'ReceiptFan_3' });
        const aligned = await expectChatButtonStepsAside(phone, robloxName);
        if (width < 640) expect(aligned, 'the name can be scrolled under the button').toBe(true);
        // the key alone opens it: without it, this browser is turned away
        await phone.goto(`/orders/${orderId}`);
        await expect(
          phone.getByRole('heading', { level: 1, name: 'Order not found' }),
        ).toBeVisible();
      } finally {
        await context.close();
      }
    }

    // Staff claim it (with their private server link) and deliver it.
    const staff = await loggedIn(playwright, base, STAFF);
    await setPrivateServerLink(staff, base);
    const before = outboxFiles();
    for (const step of ['claim', 'deliver']) {
      const answer = await staff.post(`/api/admin/orders/${orderId}/${step}`, {
        data: step === 'deliver' ? { proof_id: null } : {},
        headers: { Origin: base },
      });
      expect(answer.status(), await answer.text()).toBe(200);
    }
    await staff.dispose();

    // The buyer's other device shows Delivered, with every step's time.
    const context = await browser.newContext({ viewport: { width: 375, height: 900 } });
    const phone = await context.newPage();
    try {
      await phone.goto(orderPath);
      await expect(phone.getByTestId('order-page-status')).toHaveText('Delivered');
      await expect(phone.getByTestId('queue-position')).toHaveCount(0);
      await expect(
        phone.getByRole('list', { name: 'Order progress' }).getByRole('listitem'),
      ).toHaveText([/^Paid.+\d/, /^In the queueDone$/, /^Staff on the way.+\d/, /^Delivered.+\d/]);
      await saveScreenshot(phone, testInfo, 'order-page-delivered-375');

      // The buyer leaves five stars through the link, once.
      const review = phone.getByRole('region', { name: 'How did we do?' });
      await review.getByRole('button', { name: '5 stars' }).click();
      await review.getByLabel('Your review (optional)').fill('Delivered in minutes, thank you!');
      await review.getByRole('button', { name: 'Post review' }).click();
      await expect(review.getByRole('status')).toHaveText(
        'Thank you! Your review is on the reviews page.',
      );
      await phone.reload();
      await phone
        .getByRole('region', { name: 'How did we do?' })
        .getByRole('button', { name: '4 stars' })
        .click();
      await phone.getByRole('button', { name: 'Post review' }).click();
      await expect(phone.getByRole('status').filter({ hasText: 'already reviewed' })).toBeVisible();

      // The navbar's Reviews link opens /reviews, which shows it under the name's first letters.
      await phone.getByRole('link', { name: 'Reviews', exact: true }).first().click();
      await expect(phone).toHaveURL(/\/reviews$/);
      const card = phone
        .getByRole('list', { name: 'Reviews' })
        .getByRole('listitem')
        .filter({ hasText: 'Delivered in minutes, thank you!' });
      await expect(card).toContainText('Re*** · verified buyer');
      await expect(card.getByRole('img', { name: '5 out of 5 stars' })).toBeVisible();
      await expect(phone.getByTestId('reviews-summary')).toContainText(/verified reviews?/);
      await expectNoHorizontalScroll(phone);
      await expectNoSeriousA11yViolations(phone);
      await saveScreenshot(phone, testInfo, 'reviews-375');
      await phone.setViewportSize({ width: 1280, height: 900 });
      await saveScreenshot(phone, testInfo, 'reviews-1280');

      // The product's page shows its average and count.
      await phone.goto(`/product/${product.id}`);
      await expect(phone.getByTestId('product-rating')).toContainText('5.0 from 1 verified review');
    } finally {
      await context.close();
    }

    // Staff hide it from /reviews with a reason: it leaves the page and GET /api/reviews.
    const countBefore = ((await (await request.get('/api/reviews')).json()) as { count: number })
      .count;
    const staffContext = await browser.newContext({ viewport: { width: 375, height: 900 } });
    const staffPage = await staffContext.newPage();
    try {
      await apiLogIn(staffPage.request, base, STAFF.email, STAFF.password);
      await staffPage.goto('/reviews');
      const card = staffPage
        .getByRole('list', { name: 'Reviews' })
        .getByRole('listitem')
        .filter({ hasText: 'Delivered in minutes, thank you!' });
      const hide = card.getByRole('button', { name: /^Hide/ });
      await expect(hide).toHaveText('Hide');
      await expectNoHorizontalScroll(staffPage);
      await saveScreenshot(staffPage, testInfo, 'reviews-staff-375');
      await staffPage.setViewportSize({ width: 1280, height: 900 });
      await saveScreenshot(staffPage, testInfo, 'reviews-staff-1280');
      await staffPage.setViewportSize({ width: 375, height: 900 });

      await hide.click();
      const dialog = staffPage.getByRole('dialog', { name: 'Hide this review?' });
      // The reason is required.
      await dialog.getByRole('button', { name: 'Hide review' }).click();
      await expect(dialog.getByLabel('Reason')).toHaveAttribute('aria-invalid', 'true');
      await dialog.getByLabel('Reason').fill('Test review from the browser test');
      await expectNoSeriousA11yViolations(staffPage);
      await saveScreenshot(staffPage, testInfo, 'reviews-hide-dialog-375');
      await dialog.getByRole('button', { name: 'Hide review' }).click();
      await expect(dialog).toHaveCount(0);
      await expect(staffPage.getByText('Review hidden.')).toBeVisible();
      await expect(card).toHaveCount(0);
    } finally {
      await staffContext.close();
    }
    const after = (await (await request.get('/api/reviews')).json()) as {
      count: number;
      reviews: Array<{ text: string }>;
    };
    expect(after.count).toBe(countBefore - 1);
    expect(after.reviews.map((review) => review.text)).not.toContain(
      'Delivered in minutes, thank you!',
    );
    const delivered = await waitForMail(
      'buyer@example.com',
      before,
      `Your Garden Shop order #${orderId} has been delivered`,
    );
    expect(delivered.text).toContain(orderPath);
  } finally {
    const removed = await boss.delete(`/api/admin/products/${product.id}`, {
      headers: { Origin: base },
    });
    expect(removed.status(), await removed.text()).toBe(200);
    await boss.dispose();
  }
});
