import { expect, test } from '@playwright/test';

import { fetchProducts, plainProduct, productCards, saveScreenshot } from './helpers';

const VIEWPORTS = [
  { width: 375, height: 812 },
  { width: 1280, height: 800 },
];

for (const viewport of VIEWPORTS) {
  test.describe(`first load at ${viewport.width} px`, () => {
    test.use({ viewport });

    test('the first picture comes first, as WebP of the size shown', async ({
      page,
      request,
    }, testInfo) => {
      const products = await fetchProducts(request);
      const webpRequests: string[] = [];
      page.on('request', (sent) => {
        if (sent.resourceType() === 'image') webpRequests.push(new URL(sent.url()).pathname);
      });
      await page.goto('/');

      // the server names the first product's picture in the HTML
      const preload = page.locator('link[rel="preload"][as="image"]');
      await expect(preload).toHaveCount(1);
      await expect(preload).toHaveAttribute('fetchpriority', 'high');
      const stem = products[0].image.replace(/\.png$/, '');
      await expect(preload).toHaveAttribute('href', `${stem}-300.webp`);

      const first = productCards(page).first().getByRole('img', { name: products[0].name });
      await expect(first).toBeVisible();
      await expect(first).toHaveAttribute('fetchpriority', 'high');
      await expect(first).toHaveAttribute('loading', 'eager');
      await expect(first).toHaveAttribute('sizes', /.+/);
      await expect(first).toHaveAttribute('srcset', new RegExp(`${stem}-150\\.webp 150w`));
      await expect
        .poll(() => first.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
        .toBeGreaterThan(0);
      const shown = await first.evaluate(
        (img: HTMLImageElement) => new URL(img.currentSrc).pathname,
      );
      expect(shown.startsWith(`${stem}-`) && shown.endsWith('.webp'), shown).toBe(true);
      // the preloaded copy is the one drawn: fetched once, no PNG
      expect(webpRequests.filter((path) => path.startsWith(stem))).toHaveLength(1);
      expect(webpRequests.filter((path) => path.endsWith('.png'))).toEqual([]);

      // only the first card is prioritised
      await expect(page.locator('img[fetchpriority="high"]')).toHaveCount(1);
      await saveScreenshot(page, testInfo, `first-load-home-${viewport.width}`, {
        fullPage: false,
      });
    });

    test('card buttons are found by their visible label', async ({ page, request }) => {
      const products = await fetchProducts(request);
      const inStock = products.filter((product) => product.stock !== 0);
      await page.goto('/');
      await expect(productCards(page)).toHaveCount(products.length);
      await expect(page.getByRole('button', { name: 'Add to Cart' })).toHaveCount(inStock.length);
      const plain = plainProduct(products);
      const card = productCards(page).filter({
        has: page.getByRole('link', { name: plain.name, exact: true }),
      });
      await card.getByRole('button', { name: 'Add to Cart' }).click();
      await expect(page.getByText(`Added ${plain.name} to cart`)).toBeVisible();
      const soldOut = products.find((product) => product.stock === 0);
      if (soldOut) {
        await expect(
          page.getByRole('button', { name: `Out of Stock: ${soldOut.name}` }),
        ).toBeDisabled();
      }
    });
  });
}

test('robots.txt and sitemap.xml are real files', async ({ request, baseURL }) => {
  const robots = await request.get('/robots.txt');
  expect(robots.headers()['content-type']).toBe('text/plain; charset=utf-8');
  expect(await robots.text()).toContain(`Sitemap: ${baseURL}/sitemap.xml`);
  const sitemap = await request.get('/sitemap.xml');
  expect(sitemap.headers()['content-type']).toBe('application/xml; charset=utf-8');
  expect(await sitemap.text()).toContain(`<loc>${baseURL}/product/`);
});
