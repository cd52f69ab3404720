import { expect, test, type APIRequestContext, type Page } from './fixtures';

import {
  apiLogIn,
  cartCount,
  createAccountWithCli,
  expectChatButtonStepsAside,
  expectNoHorizontalScroll,
  expectNoSeriousA11yViolations,
  fetchProducts,
  fillDetails,
  linkDiscord,
  openCheckoutWith,
  payByCardOnDevPage,
  required,
  saveScreenshot,
  savedCart,
  type ApiProduct,
} from './helpers';

/**
 * Checkout against the real server with its local providers: the dev Discord sign-in page
 * (/dev/discord/authorize) and the dev payment page (/dev/pay/{id}, Pay and Cancel).
 */

let counter = 0;
function unique(prefix: string): string {
  counter += 1;
  return `${prefix}${Date.now()}${counter}`;
}

const mainNav = (page: Page) => page.getByRole('navigation', { name: 'Main' });
const money = (cents: number) => `$${(cents / 100).toFixed(2)}`;
const cents = (dollars: number) => Math.round(dollars * 100);

/** Card total as the shop computes it: (t + 0.30) / 0.956, half-up to the cent. */
const cardTotalCents = (totalCents: number) =>
  Math.floor((2 * (totalCents + 30) * 1000 + 956) / (2 * 956));

type CatalogProduct = ApiProduct & {
  related_ids: number[];
  delete_after_out_of_stock: boolean;
};

/**
 * The product these tests buy: finite stock (so the stock rules show), no dupe warning, not a
 * bundle nor part of one, not archived when sold out; the one with the most stock, so the few
 * units sold here never change what the other browser tests see.
 */
async function productToBuy(request: APIRequestContext): Promise<CatalogProduct> {
  const products = (await fetchProducts(request)) as CatalogProduct[];
  const inBundles = new Set(products.flatMap((p) => p.related_ids));
  const candidates = products.filter(
    (p) =>
      !p.dupe_warning &&
      p.stock !== null &&
      p.stock >= 3 &&
      p.related_ids.length === 0 &&
      !inBundles.has(p.id) &&
      !p.delete_after_out_of_stock,
  );
  candidates.sort((a, b) => (b.stock ?? 0) - (a.stock ?? 0));
  return required(candidates[0], 'standalone product with finite stock of at least 3');
}

async function stockOf(request: APIRequestContext, id: number): Promise<number | null> {
  const product = (await fetchProducts(request)).find((p) => p.id === id);
  return required(product, `product ${id}`).stock;
}

/** A promo code made by a super_admin through the API, as the admin screen would. */
async function createPromo(
  request: APIRequestContext,
  baseURL: string,
  percent: number,
): Promise<string> {
  const email = `${unique('promo-boss-')}@example.com`;
  createAccountWithCli(email, 'promo boss password', 'super_admin', 'Promo Boss');
  await apiLogIn(request, baseURL, email, 'promo boss password');
  const code = unique('E2E');
  const response = await request.post('/api/admin/promo-codes', {
    data: { code, discount_percent: percent, expires_at: null },
    headers: { Origin: baseURL },
  });
  expect(response.status(), await response.text()).toBe(201);
  return code.toUpperCase();
}

test('a logged-in buyer links Discord, applies a promo, pays, and sees the order Paid on /profile', async ({
  page,
  request,
  baseURL,
}) => {
  test.slow();
  const base = required(baseURL, 'baseURL');
  const code = await createPromo(request, base, 10);

  const email = `${unique('buyer-')}@example.com`;
  createAccountWithCli(email, 'buyer password 1', 'customer', 'Bea Buyer');
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill('buyer password 1');
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(mainNav(page).getByRole('button', { name: 'Logout' })).toBeVisible();

  const product = await productToBuy(request);
  const stockBefore = required(product.stock ?? undefined, 'finite stock');

  // Buy Now from the product page goes straight to the checkout.
  await page.goto(`/product/${product.id}`);
  await page.getByRole('button', { name: 'Buy Now' }).click();
  await expect(page).toHaveURL(/\/checkout$/);
  await expect(page.getByRole('list', { name: 'Items in your order' })).toContainText(product.name);

  await linkDiscord(page);
  await fillDetails(page);

  await page.getByLabel('Promo code').fill(`  ${code} `);
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByText(`${code} applied: 10% off.`)).toBeVisible();
  const subtotal = cents(product.price);
  const total = Math.floor((2 * subtotal * 9000 + 10_000) / 20_000);
  await expect(page.getByTestId('checkout-subtotal')).toHaveText(money(subtotal));
  await expect(page.getByTestId('checkout-discount')).toHaveText(`−${money(subtotal - total)}`);
  await expect(page.getByTestId('checkout-fee')).toHaveText(money(cardTotalCents(total) - total));
  await expect(page.getByTestId('checkout-total')).toHaveText(money(cardTotalCents(total)));

  const orderId = await payByCardOnDevPage(page);
  // The reservation holds the stock while the order is pending.
  expect(await stockOf(request, product.id)).toBe(stockBefore - 1);
  await page.getByRole('button', { name: 'Pay' }).click();

  await expect(page).toHaveURL(new RegExp(`/success\\?order_id=${orderId}$`));
  await expect(page.getByRole('heading', { level: 1, name: 'Payment Successful' })).toBeVisible();
  // The confetti draws (issue 23: the CSP refused the library's worker, the canvas stayed empty).
  await expect
    .poll(
      () =>
        page.evaluate(() =>
          Array.from(document.querySelectorAll('canvas')).some((canvas) => {
            const context = canvas.width > 0 ? canvas.getContext('2d') : null;
            if (!context) return false;
            const { data } = context.getImageData(0, 0, canvas.width, canvas.height);
            return data.some((value, index) => index % 4 === 3 && value > 0);
          }),
        ),
      { message: 'confetti on the canvas', timeout: 5_000, intervals: [50] },
    )
    .toBe(true);
  await expect(page.getByRole('heading', { name: `Order #${orderId}` })).toBeVisible();
  await expect(page.getByTestId('order-page-status')).toHaveText('Paid');
  await expect(cartCount(page)).toHaveText('0');
  expect(await savedCart(page)).toEqual([]);

  await page.goto('/profile');
  const orders = page.getByRole('list', { name: 'Orders' });
  const order = orders.getByRole('listitem').filter({ hasText: `Order #${orderId}` });
  await expect(order).toContainText('Paid');
});

test('the stock check lists what is short before any payment starts', async ({ page, request }) => {
  const product = await productToBuy(request);
  const stock = required(product.stock ?? undefined, 'finite stock');
  await openCheckoutWith(page, request, [[product.id, stock + 1]]);
  await linkDiscord(page);
  await fillDetails(page);
  await page.getByRole('button', { name: 'Complete Payment' }).click();
  const alert = page.getByRole('alert').filter({
    hasText: 'Please fix the following issues before continuing:',
  });
  await expect(alert).toContainText(
    `- ${product.name} has only ${stock} in stock, but you selected ${stock + 1}.`,
  );
  await expect(page.getByRole('dialog')).toHaveCount(0);
  expect(await stockOf(request, product.id)).toBe(stock);
});

test('cancelling on the payment page releases the stock and keeps the cart', async ({
  page,
  request,
}) => {
  const product = await productToBuy(request);
  const stock = required(product.stock ?? undefined, 'finite stock');
  await openCheckoutWith(page, request, [[product.id, 1]]);
  await linkDiscord(page);
  await fillDetails(page);
  const orderId = await payByCardOnDevPage(page);
  expect(await stockOf(request, product.id)).toBe(stock - 1);
  await page.getByRole('button', { name: 'Cancel' }).click();

  await expect(page).toHaveURL(new RegExp(`/cancel\\?order_id=${orderId}$`));
  await expect(page.getByRole('heading', { level: 1, name: 'Payment cancelled' })).toBeVisible();
  await expect.poll(() => stockOf(request, product.id)).toBe(stock);
  const order = await page.request.get(`/api/orders/${orderId}`);
  expect(((await order.json()) as { status: string }).status).toBe('cancelled');
  expect(await savedCart(page)).toEqual([expect.objectContaining({ id: product.id, qty: 1 })]);

  await page.getByRole('link', { name: 'Back to checkout' }).click();
  await expect(page).toHaveURL(/\/checkout$/);
  await expect(page.getByRole('list', { name: 'Items in your order' })).toContainText(product.name);
});

const VIEWPORTS = [
  { width: 375, height: 812 },
  { width: 1280, height: 800 },
];

for (const viewport of VIEWPORTS) {
  test.describe(`checkout screens at ${viewport.width} px`, () => {
    test.use({ viewport });

    test('fit the screen, pass axe, and look right', async ({ page, request }, testInfo) => {
      test.slow();
      const shot = async (name: string, fullPage = true) => {
        await expectNoHorizontalScroll(page);
        await expectNoSeriousA11yViolations(page);
        await saveScreenshot(page, testInfo, `checkout-${name}-${viewport.width}`, { fullPage });
      };

      await page.goto('/checkout');
      await expect(page.getByRole('heading', { name: 'Your cart is empty' })).toBeVisible();
      await shot('empty');

      const product = await productToBuy(request);
      await openCheckoutWith(page, request, [[product.id, 1]]);
      await linkDiscord(page);
      await fillDetails(page);
      await shot('filled');
      // the chat button steps aside from the total and the Roblox avatar (issue 23)
      const total = await expectChatButtonStepsAside(page, page.getByTestId('checkout-total'));
      if (viewport.width < 640) expect(total, 'the total can go under the button').toBe(true);
      await expectChatButtonStepsAside(page, page.getByRole('img', { name: /^Roblox avatar of/ }));

      await payByCardOnDevPage(page, testInfo, `checkout-payment-modal-${viewport.width}`);
      await page.getByRole('button', { name: 'Cancel' }).click();
      await expect(page.getByRole('heading', { name: 'Payment cancelled' })).toBeVisible();
      await shot('cancel');

      await page.getByRole('link', { name: 'Back to checkout' }).click();
      await expect(page.getByTestId('discord-username')).toBeVisible();
      await payByCardOnDevPage(page);
      await page.getByRole('button', { name: 'Pay' }).click();
      await expect(page.getByTestId('order-page-status')).toHaveText('Paid');
      await shot('success');
    });
  });
}
