import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { expect, type APIRequestContext, type Page, type TestInfo } from '@playwright/test';

/** The product fields the tests rely on, as GET /api/products returns them. */
export type ApiProduct = {
  id: number;
  name: string;
  category: string;
  price: number;
  stock: number | null;
  dupe_warning: boolean;
};

export async function fetchProducts(request: APIRequestContext): Promise<ApiProduct[]> {
  const response = await request.get('/api/products');
  expect(response.ok()).toBe(true);
  const products = (await response.json()) as ApiProduct[];
  expect(products.length).toBeGreaterThan(0);
  return products;
}

/** An in-stock product without the dupe warning: it goes straight into the cart. */
export function plainProduct(products: ApiProduct[]): ApiProduct {
  const product = products.find((p) => !p.dupe_warning && p.stock !== 0);
  if (!product) throw new Error('The demo data has no in-stock product without a dupe warning.');
  return product;
}

export const productList = (page: Page) => page.getByRole('list', { name: 'Products' });

/** The grid's cards (not the badge lists inside them). */
export const productCards = (page: Page) => productList(page).locator(':scope > li');

/** The names shown in the grid, in order. */
export async function shownNames(page: Page): Promise<string[]> {
  return productList(page).getByRole('heading', { level: 3 }).allTextContents();
}

export const cartCount = (page: Page) => page.getByTestId('cart-count');

export const cartDrawer = (page: Page) => page.getByRole('dialog', { name: 'Your Cart' });

/** The cart as saved in localStorage under `cartItems`. */
export async function savedCart(page: Page): Promise<Array<{ id: number; qty: number }>> {
  return page.evaluate(() => JSON.parse(window.localStorage.getItem('cartItems') ?? '[]'));
}

export async function expectNoHorizontalScroll(page: Page): Promise<void> {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  expect(scrollWidth, 'the page must not scroll sideways').toBeLessThanOrEqual(innerWidth);
}

const artifactsDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../e2e-artifacts');

/**
 * A screenshot, attached to the report and kept in e2e-artifacts/. Full page by default; overlays
 * (drawer, modal) are taken as the screen shows them.
 */
export async function saveScreenshot(
  page: Page,
  testInfo: TestInfo,
  name: string,
  { fullPage = true }: { fullPage?: boolean } = {},
): Promise<void> {
  // Load every lazy image and the fonts, so the picture shows the page as a shopper sees it.
  await page.evaluate(async () => {
    const images = Array.from(document.images);
    images.forEach((image) => (image.loading = 'eager'));
    await Promise.all(
      images.map((image) =>
        image.complete
          ? null
          : new Promise((done) => {
              image.addEventListener('load', done, { once: true });
              image.addEventListener('error', done, { once: true });
            }),
      ),
    );
    await document.fonts.ready;
  });
  const file = testInfo.outputPath(`${name}.png`);
  const body = await page.screenshot({ path: file, fullPage, animations: 'disabled' });
  await testInfo.attach(name, { body, contentType: 'image/png' });
  mkdirSync(artifactsDir, { recursive: true });
  await page.screenshot({
    path: path.join(artifactsDir, `${name}.png`),
    fullPage,
    animations: 'disabled',
  });
}

/** The value, or a failure explaining what the demo data lacks. */
export function required<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`The demo data has no ${what}.`);
  return value;
}
