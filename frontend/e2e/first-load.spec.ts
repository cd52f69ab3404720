import { expect, test, type Page } from './fixtures';

import {
  apiLogIn,
  createAccountWithCli,
  fetchProducts,
  plainProduct,
  productCards,
  required,
  saveScreenshot,
} from './helpers';

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

/**
 * Counts, on each page `page` loads, the `ready` events its event streams have handled: the
 * stream's first event, on which the app decides whether to refetch (live-events.ts). The
 * app's own listener runs first and whole; the count only follows it.
 */
async function countStreamReady(page: Page) {
  await page.addInitScript(() => {
    const counted = window as unknown as { streamReadyHandled: number };
    counted.streamReadyHandled = 0;
    const streams = EventSource.prototype as EventTarget;
    const add = streams.addEventListener;
    streams.addEventListener = function (this: EventTarget, type, listener, options) {
      if (type !== 'ready' || typeof listener !== 'function') {
        add.call(this, type, listener, options);
        return;
      }
      const counting = function (this: EventTarget, event: Event) {
        listener.call(this, event);
        counted.streamReadyHandled += 1;
      };
      add.call(this, type, counting, options);
    };
  });
}

/** Resolves once the page's event stream has answered and the app has acted on its `ready`. */
async function streamReadyHandled(page: Page) {
  await page.waitForFunction(
    () => (window as unknown as { streamReadyHandled: number }).streamReadyHandled > 0,
  );
}

/** The /api calls a page makes, in order (paths only). */
function recordApiCalls(page: Page): string[] {
  const calls: string[] = [];
  page.on('request', (sent) => {
    const path = new URL(sent.url()).pathname;
    if (path.startsWith('/api/')) calls.push(path);
  });
  return calls;
}

test('the storefront draws from its HTML: no session check, no list request, code fetched with it', async ({
  page,
  request,
}) => {
  const products = await fetchProducts(request);
  await countStreamReady(page);
  const apiCalls = recordApiCalls(page);
  const scripts: Array<{ path: string; encoding?: string }> = [];
  page.on('response', (answer) => {
    if (answer.request().resourceType() !== 'script') return;
    scripts.push({
      path: new URL(answer.url()).pathname,
      encoding: answer.headers()['content-encoding'],
    });
  });

  await page.goto('/');
  await expect(productCards(page)).toHaveCount(products.length);
  const beforeFirstCards = [...apiCalls];
  expect(beforeFirstCards).not.toContain('/api/auth/check');
  expect(beforeFirstCards).not.toContain('/api/products');
  // the page's element was read and removed; the home page's chunk was named by the HTML
  await expect(page.locator('#shop-bootstrap')).toHaveCount(0);
  const homeChunk = page.locator('link[rel="modulepreload"][href^="/assets/home-"]');
  await expect(homeChunk).toHaveCount(1);
  // the scripts came in the build's brotli copies
  const entry = scripts.find((script) => script.path.startsWith('/assets/index-'));
  expect(entry?.encoding).toBe('br');

  // the event stream resumed from the page's own data: coming up, it refetches nothing
  await streamReadyHandled(page);

  // a product page the same way
  const product = products[3];
  await page.goto(`/product/${product.id}`);
  await expect(page.getByRole('heading', { level: 1, name: product.name })).toBeVisible();
  await expect(page.locator('link[rel="modulepreload"][href^="/assets/product-"]')).toHaveCount(1);
  await streamReadyHandled(page);
  expect(apiCalls.filter((path) => path === '/api/auth/check' || path === '/api/products')).toEqual(
    [],
  );
});

test('a signed-in visitor is known from the page itself', async ({ page, baseURL }) => {
  const email = 'first-load@example.com';
  const password = 'first load password 1';
  createAccountWithCli(email, password, 'customer', 'Fern First');
  await apiLogIn(page.request, required(baseURL, 'baseURL'), email, password);
  const apiCalls = recordApiCalls(page);
  await page.goto('/about');
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('button', { name: 'Logout' })).toBeVisible();
  expect(apiCalls).not.toContain('/api/auth/check');

  // logging out in another tab: the next page load knows at once
  await page.request.post('/api/logout', { headers: { Origin: required(baseURL, 'baseURL') } });
  await page.reload();
  await expect(nav.getByRole('link', { name: 'Login' })).toBeVisible();
  await expect(nav.getByRole('button', { name: 'Logout' })).toHaveCount(0);
});

test('robots.txt and sitemap.xml are real files', async ({ request, baseURL }) => {
  const robots = await request.get('/robots.txt');
  expect(robots.headers()['content-type']).toBe('text/plain; charset=utf-8');
  expect(await robots.text()).toContain(`Sitemap: ${baseURL}/sitemap.xml`);
  const sitemap = await request.get('/sitemap.xml');
  expect(sitemap.headers()['content-type']).toBe('application/xml; charset=utf-8');
  expect(await sitemap.text()).toContain(`<loc>${baseURL}/product/`);
});
