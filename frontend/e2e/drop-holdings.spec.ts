import { expect, test, type APIRequestContext } from './fixtures';

import {
  apiLogIn,
  cartCount,
  cartDrawer,
  createAccountWithCli,
  expectNoHorizontalScroll,
  expectNoSeriousA11yViolations,
  fillDetails,
  linkDiscord,
  payByCardOnDevPage,
  saveScreenshot,
  shopUrl,
} from './helpers';

/**
 * The drop before the last step (issue 34 item 7) against the real server: a buyer who bought
 * the one a drop allows comes back to its page and reads "You already have 1 of 1" with Add to
 * Cart and Buy Now disabled; a cart saved before the purchase is marked and cannot go to the
 * checkout. The home page lists the drops still to come in a strip above the grid, counting down.
 */

const stamp = Date.now();
const OWNER = { email: `held-owner-${stamp}@example.com`, password: 'owner password 9' };
const HELD = `Held ${stamp} Moon Dragon`;
const COMING = `Soon ${stamp} Star Owl`;

test.beforeAll(() => {
  createAccountWithCli(OWNER.email, OWNER.password, 'super_admin', 'Hedda Held');
});

/** Creates a product through the admin API, then gives it `extra` fields (a cap, a release). */
async function createProduct(
  request: APIRequestContext,
  base: string,
  name: string,
  extra: Record<string, string>,
): Promise<number> {
  const fields = { name, price: '7.25', category: 'Pets', description: 'A drop.', stock: '5' };
  const created = await request.post('/api/admin/products', {
    multipart: fields,
    headers: { Origin: base },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { id } = (await created.json()) as { id: number };
  const edited = await request.post(`/api/admin/products/${id}`, {
    multipart: { _method: 'PUT', ...fields, ...extra },
    headers: { Origin: base },
  });
  expect(edited.status(), await edited.text()).toBe(200);
  return id;
}

test('after buying the one a drop allows, its page and the cart refuse more before checkout', async ({
  page,
  playwright,
}, testInfo) => {
  test.slow();
  const base = shopUrl();
  const admin = await playwright.request.newContext({ baseURL: base });
  await apiLogIn(admin, base, OWNER.email, OWNER.password);
  const id = await createProduct(admin, base, HELD, { max_per_account: '1' });

  try {
    // the buyer's one: Buy Now, Discord, details, paid on the dev page
    await page.goto(`/product/${id}`);
    await expect(page.getByRole('heading', { level: 1, name: HELD })).toBeVisible();
    await expect(page.getByText('Limit 1 per account')).toBeVisible();
    await expect(page.getByText(/^You already have/)).toHaveCount(0);
    await page.getByRole('button', { name: 'Buy Now' }).click();
    await expect(page).toHaveURL(/\/checkout$/);
    await linkDiscord(page);
    await fillDetails(page);
    const orderId = await payByCardOnDevPage(page);
    await page.getByRole('button', { name: 'Pay' }).click();
    await expect(page).toHaveURL(new RegExp(`/success\\?order_id=${orderId}$`));
    // the success page empties the cart once it is on screen: wait for it before leaving
    await expect(cartCount(page)).toHaveText('0');

    // back on its page: the one held, both buttons off and saying why
    await page.goto(`/product/${id}`);
    const held = page.getByText('You already have 1 of 1: that is the limit per account.');
    await expect(held).toBeVisible();
    const addToCart = page.getByRole('button', { name: 'Add to Cart' });
    const buyNow = page.getByRole('button', { name: 'Buy Now' });
    for (const button of [addToCart, buyNow]) {
      await expect(button).toBeDisabled();
      await expect(button).toHaveAccessibleDescription(
        'You already have 1 of 1: that is the limit per account.',
      );
    }
    await expectNoSeriousA11yViolations(page);
    await saveScreenshot(page, testInfo, 'drop-held-product-1280');
    await page.setViewportSize({ width: 375, height: 812 });
    await expectNoHorizontalScroll(page);
    await held.scrollIntoViewIfNeeded();
    await saveScreenshot(page, testInfo, 'drop-held-product-375', { fullPage: false });

    // a cart saved before the purchase: marked, no more, no checkout
    const products = (await (await page.request.get('/api/products')).json()) as Array<{
      id: number;
    }>;
    const drop = products.find((product) => product.id === id);
    await page.evaluate((item) => {
      window.localStorage.setItem('cartItems', JSON.stringify([{ ...item, qty: 1 }]));
    }, drop);
    await page.goto('/');
    await page.getByRole('button', { name: /^Your Cart/ }).click();
    const drawer = cartDrawer(page);
    await expect(
      drawer.getByText('You already have 1 of 1: remove it before checkout'),
    ).toBeVisible();
    await expect(
      drawer.getByRole('button', { name: `Increase quantity of ${HELD}` }),
    ).toBeDisabled();
    const checkout = drawer.getByRole('button', { name: 'Checkout' });
    await expect(checkout).toBeDisabled();
    await expect(checkout).toHaveAccessibleDescription(
      'Over the limit per account: change the marked items to check out.',
    );
    await expectNoSeriousA11yViolations(page);
    await saveScreenshot(page, testInfo, 'drop-held-cart-375', { fullPage: false });
    // taking it out opens the checkout again
    await drawer.getByRole('button', { name: `Decrease quantity of ${HELD}` }).click();
    await expect(drawer.getByText('Your cart is empty')).toBeVisible();
  } finally {
    await admin.delete(`/api/admin/products/${id}`, { headers: { Origin: base } });
    await admin.dispose();
  }
});

test('the home page shows the drops to come above the grid, each counting down', async ({
  page,
  playwright,
}, testInfo) => {
  test.slow();
  const base = shopUrl();
  const admin = await playwright.request.newContext({ baseURL: base });
  await apiLogIn(admin, base, OWNER.email, OWNER.password);
  const inAnHour = new Date(Math.ceil((Date.now() + 3_600_000) / 60_000) * 60_000).toISOString();
  const id = await createProduct(admin, base, COMING, {
    release_at: inAnHour,
    max_per_account: '1',
  });

  try {
    await page.goto('/');
    const strip = page.getByRole('region', { name: 'Upcoming drops' });
    await expect(strip).toBeVisible();
    const item = strip.getByRole('listitem').filter({ hasText: COMING });
    await expect(item.getByText(/^Drops in (59:\d\d|1:00:\d\d)$/)).toBeVisible();
    // above the grid
    const stripBox = await strip.boundingBox();
    const gridBox = await page.getByRole('list', { name: 'Products' }).boundingBox();
    expect(stripBox && gridBox && stripBox.y + stripBox.height <= gridBox.y).toBe(true);
    await expectNoSeriousA11yViolations(page);
    await strip.scrollIntoViewIfNeeded();
    await saveScreenshot(page, testInfo, 'home-upcoming-drops-1280', { fullPage: false });
    await page.setViewportSize({ width: 375, height: 812 });
    await expectNoHorizontalScroll(page);
    await strip.scrollIntoViewIfNeeded();
    await saveScreenshot(page, testInfo, 'home-upcoming-drops-375', { fullPage: false });

    // its link opens its page
    await item.getByRole('link', { name: COMING }).click();
    await expect(page).toHaveURL(new RegExp(`/product/${id}$`));
    await expect(page.getByRole('heading', { level: 1, name: COMING })).toBeVisible();
  } finally {
    await admin.delete(`/api/admin/products/${id}`, { headers: { Origin: base } });
    await admin.dispose();
  }
});
