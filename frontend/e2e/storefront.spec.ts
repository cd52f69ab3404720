import { expect, test } from './fixtures';

import {
  cartCount,
  cartDrawer,
  fetchProducts,
  plainProduct,
  productCards,
  productList,
  required,
  savedCart,
  shownNames,
} from './helpers';

const matchesCategory = (category: string, wanted: string) =>
  category
    .split(',')
    .map((part) => part.trim().toLowerCase())
    .includes(wanted.toLowerCase());

test.describe('storefront', () => {
  test('the home page shows the product grid', async ({ page, request }) => {
    const products = await fetchProducts(request);
    await page.goto('/');
    await expect(
      page.getByRole('heading', {
        level: 1,
        name: 'Upgrade your Grow A Garden experience with affordable products!',
      }),
    ).toBeVisible();
    await expect(productCards(page)).toHaveCount(products.length);
    expect(await shownNames(page)).toEqual(products.map((p) => p.name));
    const first = required(products[0], 'products');
    await expect(page.getByRole('img', { name: first.name }).first()).toBeVisible();
    await expect(page.getByText(/^\$\d+\.\d{2}$/).first()).toBeVisible();
  });

  test('the Sheckles category shows only sheckles', async ({ page, request }) => {
    const products = await fetchProducts(request);
    const sheckles = products.filter((p) => matchesCategory(p.category, 'Sheckles'));
    expect(sheckles.length).toBeGreaterThan(0);

    await page.goto('/');
    await expect(productCards(page)).toHaveCount(products.length);
    await page.getByRole('button', { name: /^Sheckles/ }).click();
    await expect(page.getByRole('button', { name: /^Sheckles/ })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    await expect(productCards(page)).toHaveCount(sheckles.length);
    expect(await shownNames(page)).toEqual(sheckles.map((p) => p.name));
  });

  test('searching "raccoon" finds the raccoons', async ({ page, request }) => {
    const products = await fetchProducts(request);
    const raccoons = products.filter(
      (p) =>
        p.name.toLowerCase().includes('raccoon') || p.category.toLowerCase().includes('raccoon'),
    );
    expect(raccoons.length).toBeGreaterThan(0);

    await page.goto('/');
    await page.getByRole('searchbox', { name: 'Search products' }).fill('raccoon');
    await expect(productCards(page)).toHaveCount(raccoons.length);
    expect(await shownNames(page)).toEqual(raccoons.map((p) => p.name));

    await page.getByRole('searchbox', { name: 'Search products' }).fill('no such thing at all');
    await expect(page.getByText(/^No products match/)).toBeVisible();
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await expect(productCards(page)).toHaveCount(products.length);
  });

  test('a product card opens the product page', async ({ page, request }) => {
    const first = required((await fetchProducts(request))[0], 'products');
    await page.goto('/');
    await productList(page).getByRole('link', { name: first.name, exact: true }).click();
    await expect(page).toHaveURL(`/product/${first.id}`);
    await expect(page.getByRole('heading', { level: 1, name: first.name })).toBeVisible();
    await page.getByRole('link', { name: /back to shop/i }).click();
    await expect(page).toHaveURL('/');
  });

  test('an unknown product says so', async ({ page }) => {
    await page.goto('/product/999999');
    await expect(page.getByText('Product not found.')).toBeVisible();
    await expect(page.getByRole('link', { name: /back to shop/i })).toBeVisible();
  });

  test('adding to the cart updates the badge and opens the drawer', async ({ page, request }) => {
    const product = plainProduct(await fetchProducts(request));
    await page.goto('/');
    await expect(cartCount(page)).toHaveText('0');
    await page.getByRole('button', { name: `Add to Cart: ${product.name}` }).click();
    await expect(cartDrawer(page)).toBeVisible();
    await expect(cartDrawer(page).getByText(product.name, { exact: true })).toBeVisible();
    await expect(page.getByText(`Added ${product.name} to cart`)).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(cartDrawer(page)).toBeHidden();
    await expect(page.getByRole('button', { name: 'Your Cart, 1 item' })).toBeFocused();

    await page.getByRole('button', { name: `Add to Cart: ${product.name}` }).click();
    await expect(cartCount(page)).toHaveText('2');
  });

  test('the cart survives a reload', async ({ page, request }) => {
    const product = plainProduct(await fetchProducts(request));
    await page.goto('/');
    await page.getByRole('button', { name: `Add to Cart: ${product.name}` }).click();
    await expect(cartCount(page)).toHaveText('1');
    expect(await savedCart(page)).toEqual([expect.objectContaining({ id: product.id, qty: 1 })]);

    await page.reload();
    await expect(cartCount(page)).toHaveText('1');
    await expect(cartDrawer(page)).toBeHidden();
    await page.getByRole('button', { name: /your cart/i }).click();
    await expect(cartDrawer(page).getByText(product.name, { exact: true })).toBeVisible();
  });

  test('decreasing a quantity to zero removes the line', async ({ page, request }) => {
    const product = plainProduct(await fetchProducts(request));
    await page.goto(`/product/${product.id}`);
    await page.getByRole('button', { name: 'Add to Cart' }).click();
    const drawer = cartDrawer(page);
    await expect(drawer).toBeVisible();
    await drawer.getByRole('button', { name: `Increase quantity of ${product.name}` }).click();
    await expect(cartCount(page)).toHaveText('2');
    await drawer.getByRole('button', { name: `Decrease quantity of ${product.name}` }).click();
    await drawer.getByRole('button', { name: `Decrease quantity of ${product.name}` }).click();
    await expect(drawer.getByText('Your cart is empty')).toBeVisible();
    await expect(cartCount(page)).toHaveText('0');
    expect(await savedCart(page)).toEqual([]);
  });

  test('a dupe-flagged product asks first: Cancel adds nothing, Proceed adds', async ({
    page,
    request,
  }) => {
    const products = await fetchProducts(request);
    const flagged = required(
      products.find((p) => p.id === 3),
      'product 3',
    );
    expect(flagged.dupe_warning, 'product 3 carries the dupe warning in the demo data').toBe(true);
    expect(flagged.stock).not.toBe(0);

    await page.goto('/product/3');
    await page.getByRole('button', { name: 'Add to Cart' }).click();
    const warning = page.getByRole('alertdialog');
    await expect(warning).toContainText(
      `By purchasing you acknowledge that the ${flagged.name} may be falsely flagged as dupe after it's delivered.`,
    );
    await warning.getByRole('button', { name: 'Cancel' }).click();
    await expect(warning).toBeHidden();
    await expect(cartCount(page)).toHaveText('0');
    expect(await savedCart(page)).toEqual([]);

    await page.getByRole('button', { name: 'Add to Cart' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Proceed' }).click();
    await expect(cartDrawer(page)).toBeVisible();
    await expect(cartCount(page)).toHaveText('1');
    expect(await savedCart(page)).toEqual([expect.objectContaining({ id: 3, qty: 1 })]);

    // Already in the cart: the product page asks again, mentioning the quantity.
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Add to Cart' }).click();
    await expect(page.getByRole('alertdialog')).toContainText('You already have 1 in your cart.');
  });

  test('the home grid shows the dupe warning too', async ({ page, request }) => {
    const flagged = required(
      (await fetchProducts(request)).find((p) => p.id === 3),
      'product 3',
    );
    await page.goto('/');
    await page.getByRole('button', { name: `Add to Cart: ${flagged.name}` }).click();
    await expect(page.getByRole('alertdialog')).toContainText('may be falsely flagged as dupe');
    await page.getByRole('alertdialog').getByRole('button', { name: 'Cancel' }).click();
    await expect(cartCount(page)).toHaveText('0');
  });

  test('an out-of-stock product cannot be added', async ({ page, request }) => {
    const soldOut = (await fetchProducts(request)).filter((p) => p.stock === 0);
    expect(soldOut, 'the demo data has exactly one out-of-stock product').toHaveLength(1);
    const product = required(soldOut[0], 'out-of-stock product');

    await page.goto('/');
    const card = productCards(page).filter({ hasText: 'Out of Stock' });
    await expect(card).toHaveCount(1);
    await expect(card.getByRole('heading', { level: 3 })).toHaveText(product.name);
    await expect(card.getByRole('button', { name: /out of stock/i })).toBeDisabled();

    await card.getByRole('link', { name: product.name }).click();
    await expect(page).toHaveURL(`/product/${product.id}`);
    const button = page.getByRole('button', { name: 'Out of Stock' });
    await expect(button).toBeDisabled();
    await button.click({ force: true });
    await expect(cartCount(page)).toHaveText('0');
    expect(await savedCart(page)).toEqual([]);
  });

  test('unknown addresses show the not-found page', async ({ page }) => {
    await page.goto('/no-such-page');
    await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
    await page.getByRole('link', { name: 'Back to the shop' }).click();
    await expect(page).toHaveURL('/');
  });
});
