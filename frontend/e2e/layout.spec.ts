import { expect, test } from './fixtures';

import {
  cartDrawer,
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
