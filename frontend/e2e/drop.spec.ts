import { expect, test, type Page } from './fixtures';

import {
  apiLogIn,
  cartCount,
  createAccountWithCli,
  expectNoSeriousA11yViolations,
  productCards,
  saveScreenshot,
  shopUrl,
} from './helpers';

/**
 * A drop (issue 25) against the real server: the super_admin sets a release time and a limit
 * per account in the admin form (in Berlin time), a shopper (in New York) watches the product
 * page count down with its main button disabled, and, with the spec's polling switched off so
 * that only the server's push can carry it, the button turns into Add to Cart at the release
 * without a reload. The browser's clock never opens the sale: the page waits for the server.
 */

const stamp = Date.now();
const OWNER = { email: `drop-owner-${stamp}@example.com`, password: 'owner password 9' };
const NAME = `Drop ${stamp} Night Owl`;

test.beforeAll(() => {
  createAccountWithCli(OWNER.email, OWNER.password, 'super_admin', 'Dora Drop');
});

/** "2026-11-27T04:30": `at` as a datetime-local input holds it, in the page's time zone. */
function localInputValue(page: Page, at: number): Promise<string> {
  return page.evaluate((moment) => {
    const date = new Date(moment);
    const pad = (value: number) => String(value).padStart(2, '0');
    return (
      `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}` +
      `T${pad(date.getHours())}:${pad(date.getMinutes())}`
    );
  }, at);
}

test('a drop counts down, then opens on the server’s push without a reload', async ({
  browser,
}, testInfo) => {
  test.slow();
  const base = shopUrl();

  const adminContext = await browser.newContext({
    locale: 'en-GB',
    timezoneId: 'Europe/Berlin',
  });
  // the shopper: polling off, so only the stream can bring the release
  const shopperContext = await browser.newContext({
    locale: 'en-US',
    timezoneId: 'America/New_York',
  });
  await shopperContext.addInitScript(() => {
    try {
      window.localStorage.setItem('garden-shop:poll', 'off');
    } catch {
      // a blank page before the shop's: the shop's own page sets it
    }
  });
  const admin = await adminContext.newPage();
  await apiLogIn(admin.request, base, OWNER.email, OWNER.password);
  const created = await admin.request.post('/api/admin/products', {
    multipart: { name: NAME, price: '6.50', category: 'Pets', description: 'A drop.', stock: '5' },
    headers: { Origin: base },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { id } = (await created.json()) as { id: number };

  try {
    // the admin sets it to drop in about an hour, one per account, in Berlin time
    const inAnHour = Math.ceil((Date.now() + 3_600_000) / 60_000) * 60_000;
    await admin.goto('/admin/products');
    await admin.getByRole('button', { name: `Edit ${NAME}` }).click();
    const dialog = admin.getByRole('dialog', { name: `Edit ${NAME}` });
    const releaseAt = dialog.getByLabel(/^Release at/);
    await expect(releaseAt).toHaveValue('');
    await releaseAt.fill(await localInputValue(admin, inAnHour));
    await expect(dialog.getByText(/^CET$/)).toBeVisible();
    await expectNoSeriousA11yViolations(admin);
    await dialog.getByRole('spinbutton', { name: /^Max per account/ }).fill('1');
    await dialog.getByRole('button', { name: 'Save changes' }).click();
    await expect(dialog).toBeHidden();
    await expect(
      admin.getByRole('article', { name: NAME }).getByText(/^Drop .* CET$/),
    ).toBeVisible();
    const stored = (await (await admin.request.get(`/api/products/${id}`)).json()) as {
      released: boolean;
      release_at: string | null;
      max_per_account: number | null;
    };
    expect(stored.released).toBe(false);
    expect(Date.parse(stored.release_at ?? '')).toBe(inAnHour);
    expect(stored.max_per_account).toBe(1);

    // the shopper's page: the time in New York, a disabled countdown, the Discord prompt
    const shopper = await shopperContext.newPage();
    await shopper.goto(`/product/${id}`);
    await expect(shopper.getByRole('heading', { level: 1, name: NAME })).toBeVisible();
    await expect(shopper.getByRole('heading', { level: 2, name: /^Drops .* EST$/ })).toBeVisible();
    // one button throughout: "Drops in 59:59", at zero "Dropping…", released "Add to Cart"
    const countdown = shopper.getByRole('button', { name: /^(Drops in \d|Dropping…)/ });
    await expect(countdown).toBeDisabled();
    await expect(countdown).toHaveText(/^Drops in (59:\d\d|1:00:\d\d)$/);
    await expect(shopper.getByRole('button', { name: 'Add to Cart' })).toHaveCount(0);
    await expect(shopper.getByText('Limit 1 per account')).toBeVisible();
    await expect(shopper.getByRole('link', { name: 'Link Discord' })).toBeVisible();
    await expectNoSeriousA11yViolations(shopper);
    await saveScreenshot(shopper, testInfo, 'drop-product-1280');
    await shopper.setViewportSize({ width: 375, height: 812 });
    await saveScreenshot(shopper, testInfo, 'drop-product-375');

    // the grid: a countdown badge and a disabled button
    const home = await shopperContext.newPage();
    await home.setViewportSize({ width: 375, height: 812 });
    await home.goto('/');
    const card = productCards(home).filter({ hasText: NAME });
    await expect(card.getByRole('button', { name: `Drops soon: ${NAME}` })).toBeDisabled();
    await expect(card.getByText(/^Drops in \d/)).toBeVisible();
    await card.scrollIntoViewIfNeeded();
    await saveScreenshot(home, testInfo, 'drop-card-375', { fullPage: false });
    await home.close();
    await shopper.setViewportSize({ width: 1280, height: 800 });

    // the admin moves the release to a few seconds from now (the admin API, the same session)
    const soon = new Date(Date.now() + 6_000).toISOString();
    const moved = await admin.request.post(`/api/admin/products/${id}`, {
      multipart: {
        _method: 'PUT',
        name: NAME,
        price: '6.50',
        category: 'Pets',
        description: 'A drop.',
        stock: '5',
        release_at: soon,
      },
      headers: { Origin: base },
    });
    expect(moved.status(), await moved.text()).toBe(200);
    // the open page follows the change, still disabled
    await expect(countdown).toHaveText(/^(Drops in 0:0\d|Dropping…)$/);
    await expect(countdown).toBeDisabled();

    // the release: the server's push brings `released: true`, no reload
    const addToCart = shopper.getByRole('button', { name: 'Add to Cart' });
    await expect(addToCart).toBeEnabled({ timeout: 20_000 });
    await expect(shopper.getByRole('heading', { level: 2, name: /^Drops / })).toHaveCount(0);
    await addToCart.click();
    await expect(cartCount(shopper)).toHaveText('1');
  } finally {
    await admin.request.delete(`/api/admin/products/${id}`, { headers: { Origin: base } });
    await adminContext.close();
    await shopperContext.close();
  }
});
