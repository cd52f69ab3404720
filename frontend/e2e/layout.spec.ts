import { expect, test } from './fixtures';

import {
  cartDrawer,
  createAccountWithCli,
  expectNoHorizontalScroll,
  expectNoSeriousA11yViolations,
  fetchProducts,
  plainProduct,
  productCards,
  saveScreenshot,
} from './helpers';

const VIEWPORTS = [
  { name: 'phone', width: 375, height: 812 },
  { name: 'desktop', width: 1280, height: 800 },
];

for (const viewport of VIEWPORTS) {
  test.describe(`at ${viewport.width} px`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });

    test('pages fit the screen with no sideways scroll', async ({ page, request }, testInfo) => {
      test.slow(); // Many pages and full-page screenshots.
      const products = await fetchProducts(request);
      const plain = plainProduct(products);

      await page.goto('/');
      await expect(productCards(page).first()).toBeVisible();
      await expectNoHorizontalScroll(page);
      await saveScreenshot(page, testInfo, `home-${viewport.width}`);

      await page.goto(`/product/${plain.id}`);
      await expect(page.getByRole('heading', { level: 1, name: plain.name })).toBeVisible();
      await expectNoHorizontalScroll(page);
      await saveScreenshot(page, testInfo, `product-${viewport.width}`);

      await page.getByRole('button', { name: 'Add to Cart' }).click();
      await expect(cartDrawer(page)).toBeVisible();
      await expectNoHorizontalScroll(page);
      if (viewport.width < 640) {
        const box = await cartDrawer(page).boundingBox();
        expect(Math.round(box?.width ?? 0), 'the cart drawer is full-width on phones').toBe(
          viewport.width,
        );
      }
      await saveScreenshot(page, testInfo, `cart-${viewport.width}`, { fullPage: false });
      await page.keyboard.press('Escape');

      await page.goto('/product/3');
      await page.getByRole('button', { name: 'Add to Cart' }).click();
      await expect(page.getByRole('alertdialog')).toBeVisible();
      await expectNoHorizontalScroll(page);
      await saveScreenshot(page, testInfo, `dupe-modal-${viewport.width}`, { fullPage: false });

      for (const path of [
        '/how-it-works',
        '/faq',
        '/terms',
        '/refund-policy',
        '/privacy-policy',
        '/about',
      ]) {
        await page.goto(path);
        await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
        await expectNoHorizontalScroll(page);
      }
      await page.goto('/how-it-works');
      await saveScreenshot(page, testInfo, `how-it-works-${viewport.width}`);
    });
  });
}

test('the home page has no serious accessibility violations', async ({ page }) => {
  await page.goto('/');
  await expect(productCards(page).first()).toBeVisible();
  await expectNoSeriousA11yViolations(page);
});

test('the product page has no serious accessibility violations', async ({ page, request }) => {
  const product = plainProduct(await fetchProducts(request));
  await page.goto(`/product/${product.id}`);
  await expect(page.getByRole('heading', { level: 1, name: product.name })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await page.getByRole('button', { name: 'Add to Cart' }).click();
  await expect(cartDrawer(page)).toBeVisible();
  await expectNoSeriousA11yViolations(page);
});

test.describe('on a phone (375 px)', () => {
  test.use({ viewport: { width: 375, height: 812 } });

  type Box = { x: number; y: number; width: number; height: number };
  const overlap = (a: Box | null, b: Box | null) =>
    !!a &&
    !!b &&
    a.x < b.x + b.width &&
    b.x < a.x + a.width &&
    a.y < b.y + b.height &&
    b.y < a.y + a.height;

  test('a toast covers neither the cart badge nor the drawer’s lines and buttons', async ({
    page,
    request,
  }) => {
    const product = plainProduct(await fetchProducts(request));
    await page.goto('/');
    const card = productCards(page).filter({
      has: page.getByRole('heading', { level: 3, name: product.name, exact: true }),
    });
    await card.getByRole('button', { name: 'Add to Cart' }).click();
    await expect(cartDrawer(page)).toBeVisible();
    const toast = page.getByText(/^Added .* to cart$/);
    await expect(toast).toBeVisible();
    const toastBox = await toast.locator('xpath=..').boundingBox();
    for (const [what, control] of [
      ['the first cart line', cartDrawer(page).getByRole('listitem').first()],
      ['the close button', cartDrawer(page).getByRole('button', { name: /close/i })],
      ['Checkout', cartDrawer(page).getByRole('button', { name: 'Checkout' })],
    ] as const) {
      expect(overlap(toastBox, await control.boundingBox()), `the toast covers ${what}`).toBe(
        false,
      );
    }
    await page.keyboard.press('Escape');
    await expect(cartDrawer(page)).toBeHidden();
    // another add without the drawer: the badge stays in sight
    await card.getByRole('button', { name: 'Add to Cart' }).click();
    await page.keyboard.press('Escape');
    const badge = page.getByTestId('cart-count');
    await expect(page.getByText(/^Added .* to cart$/).first()).toBeVisible();
    // every toast shown, measured in one go: the first add's toast may leave at any moment
    const toastBoxes = () =>
      page.getByText(/^Added .* to cart$/).evaluateAll((nodes) =>
        nodes.map((node) => {
          const { x, y, width, height } = (node.parentElement ?? node).getBoundingClientRect();
          return { x, y, width, height };
        }),
      );
    await expect(async () => {
      const boxes = await toastBoxes();
      expect(boxes.length).toBeGreaterThan(0);
      const badgeBox = await badge.boundingBox();
      for (const box of boxes) expect(overlap(box, badgeBox)).toBe(false);
    }).toPass();
  });

  test('staff: one row of links, and “Welcome back” leaves the header free', async ({
    page,
  }, testInfo) => {
    const email = `phone-boss-${Date.now()}@example.com`;
    createAccountWithCli(email, 'phone boss password', 'super_admin', 'Phoebe Boss');
    await page.goto('/login');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill('phone boss password');
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect(page).toHaveURL(/\/$/);
    const welcome = page.getByText('Welcome back, Phoebe Boss!');
    await expect(welcome).toBeVisible();
    const toastBox = await welcome.locator('xpath=..').boundingBox();
    expect(toastBox, 'the toast is still there to measure').not.toBeNull();
    // the staff's next step is in the header: the toast keeps off it (and off the cart)
    expect(
      overlap(toastBox, await page.getByRole('banner').boundingBox()),
      'the toast covers the header',
    ).toBe(false);
    // every link of a super admin on one row (issue 23: two rows, a 152 px header)
    const nav = page.getByRole('navigation', { name: 'Main' });
    await expect(nav.getByRole('link', { name: 'Admin Panel' })).toBeVisible();
    const links = await nav
      .getByRole('listitem')
      .evaluateAll((items) => items.map((item) => Math.round(item.getBoundingClientRect().top)));
    expect(new Set(links).size, `the links' rows (tops ${links.join(', ')})`).toBe(1);
    const header = await page.getByRole('banner').boundingBox();
    expect(header?.height ?? 0).toBeLessThanOrEqual(112);
    await expectNoHorizontalScroll(page);
    await saveScreenshot(page, testInfo, 'staff-home-375', { fullPage: false });
  });
});
