import { expect, test, type APIRequestContext, type Page } from './fixtures';

import {
  apiLogIn,
  createAccountWithCli,
  expectInAuditLog,
  expectNoHorizontalScroll,
  expectNoSeriousA11yViolations,
  fillDetails,
  linkDiscord,
  openCheckoutWith,
  payByCardOnDevPage,
  saveScreenshot,
  setPrivateServerLink,
  shopUrl,
} from './helpers';

/**
 * The admin screens against the real server: a super_admin (made with the CLI) creates a product
 * with a picture, edits it, moves it to the first place with the keyboard and with the move
 * buttons, finds it first on the storefront, changes its stock and opens the sales dashboard;
 * staff deliver a paid order and the buyer sees it Delivered; a customer is turned away.
 *
 * Every spec shares one server and database, and later ones read the demo catalog (its order, the
 * one product out of stock): this one works on products of its own and, whatever happens, puts
 * the catalog's order and stock back and takes its products off the shop afterwards.
 */

const stamp = Date.now();
const SUPER_ADMIN = { email: `sue-${stamp}@example.com`, password: 'marigold meadow 42' };
const STAFF = { email: `alma-${stamp}@example.com`, password: 'tulip bulbs 77' };
const CUSTOMER = { email: `carl-${stamp}@example.com`, password: 'daisy chain 2026' };
const OWN_PREFIX = `E2E ${stamp}`;
const PRODUCT = `${OWN_PREFIX} Owl`;
const RENAMED = `${PRODUCT} Deluxe`;
const PARCEL = `${OWN_PREFIX} Parcel`;

type AdminProduct = { id: number; name: string; stock: number | null; archived: boolean };

/** The catalog as the tests found it: the order of the products and their stock. */
let catalogBefore: AdminProduct[] = [];

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** An API client logged in as the super_admin, for setting up and cleaning up. */
async function superAdminApi(
  playwright: { request: { newContext: (o: { baseURL: string }) => Promise<APIRequestContext> } },
  baseURL: string,
): Promise<APIRequestContext> {
  const api = await playwright.request.newContext({ baseURL });
  await apiLogIn(api, baseURL, SUPER_ADMIN.email, SUPER_ADMIN.password);
  return api;
}

async function adminProducts(api: APIRequestContext) {
  const answer = await api.get('/api/admin/products');
  expect(answer.status(), await answer.text()).toBe(200);
  return (await answer.json()) as AdminProduct[];
}

/** Resolves once the window's scroll position has stayed the same for three animation frames. */
async function waitForStillScroll(page: Page): Promise<void> {
  await page.evaluate(
    () =>
      new Promise<void>((done) => {
        let last = window.scrollY;
        let still = 0;
        const check = () => {
          still = window.scrollY === last ? still + 1 : 0;
          last = window.scrollY;
          if (still >= 3) done();
          else requestAnimationFrame(check);
        };
        requestAnimationFrame(check);
      }),
  );
}

async function logIn(page: Page, email: string, password: string) {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(/\/$/);
}

/** A 640x480 PNG drawn by the browser itself, to upload through the form. */
async function drawnPng(page: Page): Promise<Buffer> {
  const base64 = await page.evaluate(() => {
    const canvas = document.createElement('canvas');
    canvas.width = 640;
    canvas.height = 480;
    const context = canvas.getContext('2d');
    if (!context) throw new Error('no 2d context');
    context.fillStyle = '#fde68a';
    context.fillRect(0, 0, 640, 480);
    context.fillStyle = '#15803d';
    context.beginPath();
    context.arc(320, 240, 180, 0, Math.PI * 2);
    context.fill();
    return canvas.toDataURL('image/png').split(',')[1] ?? '';
  });
  return Buffer.from(base64, 'base64');
}

test.beforeAll(async ({ playwright }) => {
  createAccountWithCli(SUPER_ADMIN.email, SUPER_ADMIN.password, 'super_admin', 'Sue Super');
  createAccountWithCli(STAFF.email, STAFF.password, 'admin', 'Alma Admin');
  createAccountWithCli(CUSTOMER.email, CUSTOMER.password, 'customer', 'Carl Customer');
  const api = await superAdminApi(playwright, shopUrl());
  catalogBefore = await adminProducts(api);
  await api.dispose();
});

// Runs even when a test failed: the catalog's order and stock as they were, our products gone
// (deleted, or archived when they were ordered, which takes them off the shop too).
test.afterAll(async ({ playwright }) => {
  const api = await superAdminApi(playwright, shopUrl());
  const now = await adminProducts(api);
  for (const product of now.filter((p) => p.name.startsWith(OWN_PREFIX) && !p.archived)) {
    const answer = await api.delete(`/api/admin/products/${product.id}`, {
      headers: { Origin: shopUrl() },
    });
    expect(answer.status(), await answer.text()).toBe(200);
  }
  const left = await adminProducts(api);
  const known = new Set(catalogBefore.map((p) => p.id));
  const order = [...catalogBefore, ...left.filter((p) => !known.has(p.id))];
  const reorder = await api.post('/api/admin/products/reorder', {
    data: { updates: order.map((p, index) => ({ id: p.id, sort_order: index })) },
    headers: { Origin: shopUrl() },
  });
  expect(reorder.status(), await reorder.text()).toBe(200);
  for (const before of catalogBefore) {
    const current = now.find((p) => p.id === before.id);
    if (before.stock !== null && current && current.stock !== before.stock) {
      const answer = await api.post(`/api/admin/products/${before.id}/inventory`, {
        data: { inventory: before.stock },
        headers: { Origin: shopUrl() },
      });
      expect(answer.status(), await answer.text()).toBe(200);
    }
  }
  const after = await adminProducts(api);
  expect(after.filter((p) => !p.archived).map((p) => [p.id, p.stock])).toEqual(
    catalogBefore.filter((p) => !p.archived).map((p) => [p.id, p.stock]),
  );
  await api.dispose();
});

test('a customer is refused the admin pages', async ({ page }) => {
  test.slow(); // argon2 on a debug build
  await logIn(page, CUSTOMER.email, CUSTOMER.password);
  for (const url of ['/admin/products', '/admin/inventory']) {
    await page.goto(url);
    await expect(
      page.getByRole('heading', { name: 'Access denied. Super Admins only.' }),
    ).toBeVisible();
  }
  await page.goto('/admin/orders');
  await expect(page.getByRole('heading', { name: 'Access denied. Staff only.' })).toBeVisible();
  // The server refuses too, whatever the page shows.
  const answer = await page.request.get('/api/admin/products');
  expect(answer.status()).toBe(403);
});

test('a super_admin runs the catalog from the browser', async ({ page }, testInfo) => {
  test.slow();
  await logIn(page, SUPER_ADMIN.email, SUPER_ADMIN.password);
  await page.goto('/admin/products');
  await expect(page.getByRole('heading', { level: 1, name: 'Products' })).toBeVisible();

  // Create, with a picture the browser shrinks to fit 300x300.
  await page.getByRole('textbox', { name: 'Name', exact: true }).fill(PRODUCT);
  await page.getByRole('textbox', { name: /^Category/ }).fill('Pets');
  await page.getByRole('textbox', { name: 'Price ($)', exact: true }).fill('99.5');
  await page.getByRole('textbox', { name: /^Stock/ }).fill('3');
  await page.getByLabel(/^Image/).setInputFiles({
    name: 'owl.png',
    mimeType: 'image/png',
    buffer: await drawnPng(page),
  });
  await expect(page.getByRole('img', { name: 'New picture preview' })).toBeVisible();
  await page.getByRole('button', { name: 'Add Product' }).click();
  await expect(page.getByText(`${PRODUCT} created.`)).toBeVisible();
  const card = page.getByRole('article', { name: PRODUCT });
  await expect(card).toBeVisible();
  // The card comes last in the grid and its picture loads lazily: bring it into view, let it load.
  const picture = card.getByRole('img', { name: PRODUCT });
  await picture.scrollIntoViewIfNeeded();
  await expect.poll(() => picture.evaluate((image: HTMLImageElement) => image.complete)).toBe(true);
  const size = await picture.evaluate((image: HTMLImageElement) => ({
    width: image.naturalWidth,
    height: image.naturalHeight,
  }));
  expect(size).toEqual({ width: 300, height: 225 });

  // Edit in the modal: the form comes filled, the card changes in place.
  await card.getByRole('button', { name: `Edit ${PRODUCT}` }).click();
  const dialog = page.getByRole('dialog', { name: `Edit ${PRODUCT}` });
  await expect(dialog.getByRole('textbox', { name: 'Name', exact: true })).toHaveValue(PRODUCT);
  await saveScreenshot(page, testInfo, 'admin-edit-form-1280', { fullPage: false });
  await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill(RENAMED);
  await dialog.getByRole('button', { name: 'Save changes' }).click();
  await expect(dialog).toBeHidden();
  const renamed = page.getByRole('article', { name: RENAMED });
  await expect(renamed).toBeVisible();

  // Move it to the first place with the keyboard: space lifts, arrows move, space drops. Every
  // step is announced in the drag-and-drop live region with the card's place in the whole list:
  // each key waits for the announcement of the one before, as a screen-reader user would.
  const handleOf = (name: string) =>
    page.getByRole('article', { name }).getByRole('button', { name: /^Reorder / });
  const announcer = page.locator('[id^="rfd-announcement-"]');
  const announced = async () =>
    Number(/position (\d+)\.$/.exec((await announcer.textContent()) ?? '')?.[1] ?? NaN);
  const columns = Number(await page.locator('.sortable-grid').getAttribute('data-columns'));
  expect(columns).toBe(3);
  await handleOf(RENAMED).focus();
  await page.keyboard.press('Space');
  await expect(announcer).toHaveText(
    new RegExp(`^Lifted ${escapeRegExp(RENAMED)}, position \\d+\\.$`),
  );
  await waitForStillScroll(page);
  let position = await announced();
  expect(position).toBeGreaterThan(columns);
  while (position > 1) {
    await page.keyboard.press(position > columns ? 'ArrowUp' : 'ArrowLeft');
    const before = position;
    await expect
      .poll(announced, { message: `a move up from position ${before}` })
      .toBeLessThan(before);
    position = await announced();
    await expect(announcer).toHaveText(`${RENAMED}: position ${position}.`);
    // The grid scrolls the lifted card to the middle of the screen after each step, and the
    // library takes a scroll in on the next animation frame: a person is never faster than that,
    // the test waits until the page has stopped scrolling before the next key.
    await waitForStillScroll(page);
  }
  await page.keyboard.press('Space');
  await expect(announcer).toHaveText(`${RENAMED} dropped at position 1.`);
  await expect(page.getByText('Product order saved.').first()).toBeVisible();
  await expect(handleOf(RENAMED)).toHaveAccessibleName(`Reorder ${RENAMED}, position 1`);

  // The move buttons do the same without dragging; focus stays on the moved card.
  await page.getByRole('button', { name: `Move ${RENAMED} down one place` }).click();
  await expect(handleOf(RENAMED)).toHaveAccessibleName(`Reorder ${RENAMED}, position 2`);
  await expect(page.getByRole('button', { name: `Move ${RENAMED} down one place` })).toBeFocused();
  await page.getByRole('button', { name: `Move ${RENAMED} to first place` }).press('Enter');
  await expect(handleOf(RENAMED)).toHaveAccessibleName(`Reorder ${RENAMED}, position 1`);
  await expect(handleOf(RENAMED)).toBeFocused();
  // Saved on the server, not only shown.
  await expect
    .poll(async () => (await (await page.request.get('/api/admin/products')).json())[0]?.name)
    .toBe(RENAMED);
  await expectNoSeriousA11yViolations(page);
  await saveScreenshot(page, testInfo, 'admin-products-1280');

  // The storefront shows it first.
  await page.goto('/');
  await expect(
    page.getByRole('list', { name: 'Products' }).locator(':scope > li').first(),
  ).toContainText(RENAMED);

  // Inventory: type a number and press Enter, then one more with plus.
  await page.goto('/admin/inventory');
  await expect(page.getByRole('heading', { name: 'Inventory Management' })).toBeVisible();
  const box = page.getByRole('textbox', { name: RENAMED });
  await box.fill('5');
  await box.press('Enter');
  const row = page.getByRole('listitem').filter({ has: box });
  await expect(row.getByText('5 in Stock')).toBeVisible();
  await row.getByRole('button', { name: `One more ${RENAMED}` }).click();
  await expect(row.getByText('6 in Stock')).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await saveScreenshot(page, testInfo, 'admin-inventory-1280');

  // The dashboard: the revenue in dollars, its daily line and three line charts of units.
  await page.goto('/admin/products');
  await page.getByRole('button', { name: 'Sales Dashboard' }).click();
  const dashboard = page.getByRole('dialog', { name: 'Sales Dashboard' });
  for (const title of [
    'Revenue',
    'Daily Revenue',
    'Daily Sales',
    'Weekly Sales',
    'Monthly Sales',
  ]) {
    await expect(dashboard.getByRole('heading', { name: title, exact: true })).toBeVisible();
  }
  await expect(
    dashboard.getByRole('region', { name: 'Revenue', exact: true }).getByText(/^\$[\d,]+\.\d\d$/),
  ).toHaveCount(2);
  await expect(dashboard.locator('canvas')).toHaveCount(4);
  await saveScreenshot(page, testInfo, 'admin-dashboard-1280', { fullPage: false });
  await dashboard.getByRole('button', { name: 'View Overall Sales' }).click();
  await expect(page.getByRole('dialog', { name: 'Overall Pet Sales' })).toBeVisible();
  await page.keyboard.press('Escape');
  await page.keyboard.press('Escape');
});

test('staff mark a paid order delivered and the buyer sees Delivered', async ({
  playwright,
  page,
  browser,
  request,
}, testInfo) => {
  test.slow();
  const base = shopUrl();
  // A product of our own, so the demo catalog's stock stays as the other specs expect it.
  const api = await superAdminApi(playwright, base);
  const created = await api.post('/api/admin/products', {
    multipart: {
      name: PARCEL,
      price: '3.25',
      category: 'Pets',
      description: 'Made by the admin browser test.',
      stock: '2',
    },
    headers: { Origin: base },
  });
  expect(created.status(), await created.text()).toBe(201);
  const parcel = (await created.json()) as AdminProduct;
  await api.dispose();

  // The buyer: logged in, Discord linked on the dev sign-in page, paid on the dev payment page.
  await logIn(page, CUSTOMER.email, CUSTOMER.password);
  await openCheckoutWith(page, request, [[parcel.id, 1]]);
  await linkDiscord(page);
  await fillDetails(page, 'ParcelFan_7');
  const orderId = await payByCardOnDevPage(page);
  await page.getByRole('button', { name: 'Pay' }).click();
  await expect(page).toHaveURL(new RegExp(`/success\\?order_id=${orderId}$`));
  await expect(page.getByTestId('order-page-status')).toHaveText('Paid');

  // Staff (an admin, not a super_admin) work the queue in their own browser.
  const staffContext = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const staff = await staffContext.newPage();
  try {
    await logIn(staff, STAFF.email, STAFF.password);
    // claiming needs a private server link, delivering a claim
    await setPrivateServerLink(staff.request, base);
    await staff.goto('/admin/orders');
    await expect(staff.getByRole('heading', { level: 1, name: 'Orders to deliver' })).toBeVisible();
    const card = staff
      .getByRole('list', { name: 'Orders' })
      .getByRole('listitem')
      .filter({ has: staff.getByRole('heading', { name: `Order #${orderId}` }) });
    await expect(card).toContainText('ParcelFan_7');
    await expect(card).toContainText(PARCEL);
    await expect(card).toContainText('Paid');
    await card.getByRole('button', { name: 'Claim' }).click();
    await expect(card.getByText('You are delivering this order.')).toBeVisible();
    await expectNoSeriousA11yViolations(staff);
    await saveScreenshot(staff, testInfo, 'admin-orders-1280');
    await card.getByRole('button', { name: 'Mark delivered' }).click();
    const dialog = staff.getByRole('dialog', { name: `Mark order #${orderId} delivered` });
    await dialog.getByRole('button', { name: 'Mark delivered' }).click();
    await expect(dialog).toBeHidden();
    await expect(card).toHaveCount(0); // no longer waiting
    await staff
      .getByRole('group', { name: 'Show orders' })
      .getByRole('button', { name: 'Delivered' })
      .click();
    await expect(card).toContainText('Delivered');
  } finally {
    await staffContext.close();
  }

  // The staff actions are in the audit log, by this member of staff.
  await expectInAuditLog(browser, SUPER_ADMIN, [
    { name: /^Private server link changed user:\d+$/, texts: ['By Alma Admin'] },
    { name: `Order claimed order:${orderId}`, texts: ['By Alma Admin'] },
    { name: `Order delivered order:${orderId}`, texts: ['By Alma Admin'] },
  ]);

  // The buyer's order page and profile say so.
  await page.reload();
  await expect(page.getByTestId('order-page-status')).toHaveText('Delivered');
  await page.goto('/profile');
  await expect(
    page
      .getByRole('list', { name: 'Orders' })
      .getByRole('listitem')
      .filter({ hasText: `Order #${orderId}` }),
  ).toContainText('Delivered');
});

test('the admin pages fit a phone', async ({ page }, testInfo) => {
  test.slow();
  await page.setViewportSize({ width: 375, height: 812 });
  await logIn(page, SUPER_ADMIN.email, SUPER_ADMIN.password);
  await page.goto('/admin/products');
  await expect(page.getByRole('button', { name: 'Add Product' })).toBeVisible();
  await expect(page.locator('.sortable-grid')).toHaveAttribute('data-columns', '1');
  await expectNoHorizontalScroll(page);
  await saveScreenshot(page, testInfo, 'admin-products-375');
  await page
    .getByRole('button', { name: /^Edit / })
    .first()
    .click();
  await saveScreenshot(page, testInfo, 'admin-edit-form-375', { fullPage: false });
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Sales Dashboard' }).click();
  const canvas = page.getByRole('dialog', { name: 'Sales Dashboard' }).locator('canvas').first();
  await expect(canvas).toBeVisible();
  // chart.js sizes the canvas once the dialog has laid out
  await expect.poll(async () => (await canvas.boundingBox())?.height).toBe(250);
  await saveScreenshot(page, testInfo, 'admin-dashboard-375', { fullPage: false });
  await page.keyboard.press('Escape');
  for (const [url, name] of [
    ['/admin/inventory', 'admin-inventory-375'],
    ['/admin/orders', 'admin-orders-375'],
  ] as const) {
    await page.goto(url);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expectNoHorizontalScroll(page);
    await saveScreenshot(page, testInfo, name);
  }
});
