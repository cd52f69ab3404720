import {
  expect,
  test,
  type APIRequestContext,
  type Browser,
  type Locator,
  type Page,
} from './fixtures';

import {
  apiLogIn,
  cartDrawer,
  createAccountWithCli,
  expectNoHorizontalScroll,
  expectNoSeriousA11yViolations,
  fetchProducts,
  fillDetails,
  openCheckoutWith,
  payByCardOnDevPage,
  plainProduct,
  productCards,
  saveScreenshot,
  setPrivateServerLink,
  shopUrl,
} from './helpers';
import { makePng } from './png';

/**
 * The staff queue on a phone (issue 34, item 6) and the floating layers (item 10): two members of
 * staff, three paid orders (two of one buyer). Every button and link of the queue takes its own
 * tap at 375 and 1280 px with the help chat and Live Chats buttons on the page
 * (`document.elementFromPoint` at its centre, with the control where the floating buttons are);
 * a colleague's claim shows by name, live; the same buyer's orders link to each other; Mark
 * delivered uploads the proof pictures in place; the Delivered tab shows when and the proof.
 */

const stamp = Date.now();
const tag = String(stamp % 100_000);
const BOSS = { email: `queue-boss-${stamp}@example.com`, password: 'queue boss password' };
const ANN = { email: `queue-ann-${stamp}@example.com`, password: 'queue ann password' };
const BEA = { email: `queue-bea-${stamp}@example.com`, password: 'queue bea password' };
const ANN_NAME = 'Ann Queue';
const BEA_NAME = 'Bea Queue';
const PRODUCT = `E2E ${stamp} Queue Quokka`;
/** One buyer with two orders (the same Discord account and Roblox name), and another buyer. */
const PAIR = `QPair_${tag}`;
const SOLO = `QSolo_${tag}`;

let productId = 0;
const orders = { pairFirst: 0, pairSecond: 0, solo: 0 };

async function apiAs(
  playwright: { request: { newContext: (o: { baseURL: string }) => Promise<APIRequestContext> } },
  baseURL: string,
  who: { email: string; password: string },
): Promise<APIRequestContext> {
  const api = await playwright.request.newContext({ baseURL });
  await apiLogIn(api, baseURL, who.email, who.password);
  return api;
}

/** A guest pays an order for one of the product as `discordName` (a demo identity) and `roblox`. */
async function paidOrder(
  browser: Browser,
  request: APIRequestContext,
  base: string,
  discordName: string,
  roblox: string,
): Promise<number> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    const page = await context.newPage();
    await openCheckoutWith(page, request, [[productId, 1]]);
    await page.getByRole('link', { name: 'Link Discord' }).click();
    await page.getByRole('button', { name: `Continue as ${discordName}` }).click();
    await expect(page).toHaveURL(/\/checkout$/);
    await fillDetails(page, roblox);
    const id = await payByCardOnDevPage(page);
    const paid = await page.request.post(`/dev/pay/${id}/pay`, {
      headers: { Origin: base },
      form: {},
      maxRedirects: 0,
    });
    expect(paid.status()).toBe(303);
    return id;
  } finally {
    await context.close();
  }
}

async function logIn(page: Page, who: { email: string; password: string }) {
  await page.goto('/login');
  await page.getByLabel('Email').fill(who.email);
  await page.getByLabel('Password', { exact: true }).fill(who.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(/\/$/);
}

const queue = (page: Page) => page.getByRole('list', { name: 'Orders' });
const card = (page: Page, id: number) => page.getByRole('listitem', { name: `Order #${id}` });

/**
 * Whether the point at the centre of `control` is the control or inside it. (A link that wraps
 * onto two lines is measured on its first: the middle of its whole box may be beside the text.)
 */
function hitsItself(control: Locator): Promise<boolean> {
  return control.evaluate((element) => {
    const box = element.getClientRects()[0] ?? element.getBoundingClientRect();
    const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    return hit !== null && (hit === element || element.contains(hit));
  });
}

/**
 * Every visible button and link of the queue page, one by one, brought to the height of the
 * floating buttons (bottom of the screen, where they covered Claim, Release and Refund), then
 * tapped in thought: `elementFromPoint` at its centre must be the control. The chat buttons are
 * on the page the whole time.
 */
async function expectEveryControlTakesItsTap(page: Page): Promise<number> {
  await expect(page.locator('.chat-launcher')).toHaveCount(1);
  await expect(page.locator('.live-chats-launcher')).toHaveCount(1);
  const controls = page.locator('main :is(a[href], button, select, input, summary)');
  const count = await controls.count();
  let checked = 0;
  for (let index = 0; index < count; index += 1) {
    const control = controls.nth(index);
    if (!(await control.isVisible())) continue;
    const label = (await control.getAttribute('aria-label')) ?? (await control.innerText());
    for (const launcher of ['.live-chats-launcher', '.chat-launcher']) {
      await control.evaluate((element, selector) => {
        const button = document.querySelector(selector);
        if (!button) throw new Error(`no ${selector}`);
        const centre = (box: DOMRect) => box.top + box.height / 2;
        const own = element.getClientRects()[0] ?? element.getBoundingClientRect();
        window.scrollBy(0, centre(own) - centre(button.getBoundingClientRect()));
      }, launcher);
      await expect
        .poll(() => hitsItself(control), {
          message: `"${label.trim()}" takes its own tap (level with ${launcher})`,
        })
        .toBe(true);
    }
    checked += 1;
  }
  await page.evaluate(() => window.scrollTo(0, 0));
  return checked;
}

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ playwright, browser, request }) => {
  test.setTimeout(120_000);
  createAccountWithCli(BOSS.email, BOSS.password, 'super_admin', 'Quinn Boss');
  createAccountWithCli(ANN.email, ANN.password, 'admin', ANN_NAME);
  createAccountWithCli(BEA.email, BEA.password, 'admin', BEA_NAME);
  const base = shopUrl();
  const boss = await apiAs(playwright, base, BOSS);
  const created = await boss.post('/api/admin/products', {
    multipart: {
      name: PRODUCT,
      price: '2.25',
      category: 'Pets',
      description: 'Made by the staff queue browser test.',
      stock: '10',
    },
    headers: { Origin: base },
  });
  expect(created.status(), await created.text()).toBe(201);
  productId = ((await created.json()) as { id: number }).id;
  await boss.dispose();
  // (the other specs buy as the first demo identity: these buyers are the other two)
  orders.pairFirst = await paidOrder(browser, request, base, 'petkeeper', PAIR);
  orders.solo = await paidOrder(browser, request, base, 'seedcollector', SOLO);
  orders.pairSecond = await paidOrder(browser, request, base, 'petkeeper', PAIR);
});

test.afterAll(async ({ playwright }) => {
  const base = shopUrl();
  const boss = await apiAs(playwright, base, BOSS);
  const answer = await boss.delete(`/api/admin/products/${productId}`, {
    headers: { Origin: base },
  });
  expect(answer.status(), await answer.text()).toBe(200);
  await boss.dispose();
});

test('at 1280 px: a colleague’s claim by name, live; the same buyer’s orders linked; every action takes its tap', async ({
  page,
  playwright,
}, testInfo) => {
  test.setTimeout(120_000);
  const base = shopUrl();
  await page.setViewportSize({ width: 1280, height: 800 });
  await logIn(page, ANN);
  await setPrivateServerLink(page.request, base);
  await page.goto('/admin/orders');
  await expect(page.getByTestId('queue-live-state')).toHaveText(/^Live: /);
  await expect(page.getByText(/every 10 seconds/)).toHaveCount(0);
  await expect(card(page, orders.solo)).toBeVisible();

  // Bea claims the other buyer's order in her own browser: Ann's queue says so by name, live
  const bea = await apiAs(playwright, base, BEA);
  try {
    await setPrivateServerLink(bea, base);
    const claimed = await bea.post(`/api/admin/orders/${orders.solo}/claim`, {
      headers: { Origin: base },
    });
    expect(claimed.status(), await claimed.text()).toBe(200);
  } finally {
    await bea.dispose();
  }
  const solo = card(page, orders.solo);
  await expect(solo).toContainText(`${BEA_NAME} is delivering this.`);
  await expect(
    solo.getByRole('button', { name: /^(Claim|Release|Mark delivered|Refund)/ }),
  ).toHaveCount(0);

  // the same buyer's two orders point at each other
  const first = card(page, orders.pairFirst);
  const second = card(page, orders.pairSecond);
  await expect(first).toContainText('2 orders from this buyer');
  await expect(first.getByRole('link', { name: `#${orders.pairSecond}` })).toHaveAttribute(
    'href',
    `#order-${orders.pairSecond}`,
  );
  await expect(second.getByRole('link', { name: `#${orders.pairFirst}` })).toBeVisible();
  await expect(solo).not.toContainText('from this buyer');

  // the strip: this run's orders are among the waiting and the claimed
  const strip = page.getByLabel('Queue summary');
  await expect(strip).toContainText('Waiting');
  await expect(strip).toContainText('Oldest wait');

  // Ann claims the second order: Claim is the card's primary button
  const claim = second.getByRole('button', { name: 'Claim' });
  await expect(claim).toHaveClass(/btn--primary/);
  await claim.click();
  await expect(second).toContainText('You are delivering this order.');
  await expect(second.getByRole('button', { name: 'Mark delivered' })).toBeVisible();
  // the toast, top right under the header, leaves the card's actions alone
  await expect(page.getByText(`You are delivering order #${orders.pairSecond}.`)).toBeVisible();
  for (const name of ['Mark delivered', 'Release', 'Refund']) {
    const action = second.getByRole('button', { name, exact: true });
    await action.scrollIntoViewIfNeeded();
    expect(await hitsItself(action), `${name} is not under the toast`).toBe(true);
  }

  expect(await expectEveryControlTakesItsTap(page)).toBeGreaterThan(5);
  await expectNoSeriousA11yViolations(page);
  await saveScreenshot(page, testInfo, 'staff-queue-paid-1280', { fullPage: false });
  await page.evaluate(() => window.scrollTo(0, 0));
  await saveScreenshot(page, testInfo, 'staff-queue-paid-full-1280');
});

test('at 375 px: claim with the toast clear of the actions, upload the proof in place, Mark delivered, the Delivered tab shows when and the proof', async ({
  page,
}, testInfo) => {
  test.setTimeout(120_000);
  const base = shopUrl();
  await page.setViewportSize({ width: 375, height: 812 });
  await logIn(page, ANN);
  await setPrivateServerLink(page.request, base);
  await page.goto('/admin/orders');
  await expect(page.getByTestId('queue-live-state')).toHaveText(/^Live: /);
  const first = card(page, orders.pairFirst);
  await expect(first).toContainText('2 orders from this buyer');
  await expect(card(page, orders.solo)).toContainText(`${BEA_NAME} is delivering this.`);
  await expectNoHorizontalScroll(page);

  // every action takes its own tap before and after the claim
  expect(await expectEveryControlTakesItsTap(page)).toBeGreaterThan(5);
  await first.getByRole('button', { name: 'Claim' }).click();
  const toast = page.getByText(`You are delivering order #${orders.pairFirst}.`);
  await expect(toast).toBeVisible();
  await expect(first).toContainText('You are delivering this order.');
  // the toast is at the top, under the header: it covers none of the claimed card's actions
  const header = await page.getByRole('banner').boundingBox();
  const toastBox = await toast.locator('xpath=..').boundingBox();
  expect(toastBox && header && toastBox.y >= header.y + header.height).toBe(true);
  for (const name of ['Mark delivered', 'Release', 'Refund']) {
    const action = first.getByRole('button', { name, exact: true });
    await action.scrollIntoViewIfNeeded();
    expect(await hitsItself(action), `${name} is not under the toast`).toBe(true);
  }
  await saveScreenshot(page, testInfo, 'staff-queue-claimed-375', { fullPage: false });
  await expectNoSeriousA11yViolations(page);
  expect(await expectEveryControlTakesItsTap(page)).toBeGreaterThan(5);
  await saveScreenshot(page, testInfo, 'staff-queue-paid-375');

  // Mark delivered: the proof's pictures uploaded from the dialog, then chosen and delivered
  await first.getByRole('button', { name: 'Mark delivered' }).click();
  const dialog = page.getByRole('dialog', { name: `Mark order #${orders.pairFirst} delivered` });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel('Items delivered')).toHaveValue(`1 × ${PRODUCT}`);
  await dialog.getByLabel('Pictures').setInputFiles({
    name: 'trade.png',
    mimeType: 'image/png',
    buffer: makePng(120, 90, [34, 197, 94], [14, 116, 144]),
  });
  await dialog.getByRole('button', { name: 'Upload proof' }).click();
  const proofSelect = dialog.getByRole('combobox', { name: /Proof of delivery/ });
  await expect(proofSelect).not.toHaveValue('');
  const proofId = Number(await proofSelect.inputValue());
  await expect(dialog.getByText(`Proof #${proofId} is uploaded and chosen.`)).toBeVisible();
  await saveScreenshot(page, testInfo, 'staff-queue-deliver-dialog-375', { fullPage: false });
  await dialog.getByRole('button', { name: 'Mark delivered' }).click();
  await expect(dialog).toBeHidden();
  await expect(card(page, orders.pairFirst)).toHaveCount(0);
  // the buyer's other order stands alone now
  await expect(card(page, orders.pairSecond)).not.toContainText('from this buyer');

  // the proofs page has it too
  const proofs = await page.request.get('/api/proofs');
  expect(((await proofs.json()) as Array<{ id: number }>).map((proof) => proof.id)).toContain(
    proofId,
  );

  // the Delivered tab: when, by whom, and the proof's picture linking to the full one
  await page.getByRole('button', { name: 'Delivered', exact: true }).click();
  const delivered = card(page, orders.pairFirst);
  await expect(delivered).toContainText(/Delivered \w{3} \d+, \d{4}, .* by you/);
  const picture = delivered.getByRole('link', { name: `Proof #${proofId}, picture 1` });
  await expect(picture).toHaveAttribute('href', /^\/media\/proofs\//);
  await expect(picture.getByRole('img')).toHaveJSProperty('complete', true);
  expect(
    await picture.getByRole('img').evaluate((image: HTMLImageElement) => image.naturalWidth),
  ).toBeGreaterThan(0);
  await delivered.scrollIntoViewIfNeeded();
  expect(await expectEveryControlTakesItsTap(page)).toBeGreaterThan(0);
  await delivered.scrollIntoViewIfNeeded();
  await saveScreenshot(page, testInfo, 'staff-queue-delivered-375', { fullPage: false });
  await page.setViewportSize({ width: 1280, height: 800 });
  await delivered.scrollIntoViewIfNeeded();
  await saveScreenshot(page, testInfo, 'staff-queue-delivered-1280', { fullPage: false });
});

test('a modal’s backdrop covers the chat buttons', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 812 });
  await logIn(page, ANN);
  await page.goto('/admin/orders');
  await expect(queue(page)).toBeVisible();
  // at the foot of the page nothing of the queue is under them: both are there to be seen
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  const launchers = [page.locator('.live-chats-launcher'), page.locator('.chat-launcher')];
  for (const launcher of launchers) {
    await expect(launcher).toBeVisible();
    await expect.poll(() => hitsItself(launcher)).toBe(true);
  }
  // a refund's confirmation opens without scrolling the page
  await queue(page).getByRole('button', { name: 'Refund' }).last().dispatchEvent('click');
  const dialog = page.getByRole('alertdialog', { name: /^Refund order #\d+\?$/ });
  await expect(dialog).toBeVisible();
  for (const launcher of launchers) {
    const covered = await launcher.evaluate((element) => {
      const box = element.getBoundingClientRect();
      const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
      return hit?.closest('[data-testid="modal-backdrop"]') !== null && !element.contains(hit);
    });
    expect(covered, 'the backdrop is over the floating button').toBe(true);
  }
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
});

test('on a phone the “Added to cart” toast leaves the cart drawer’s title in sight', async ({
  page,
  request,
}, testInfo) => {
  await page.setViewportSize({ width: 375, height: 812 });
  const product = plainProduct(await fetchProducts(request));
  await page.goto('/');
  const productCard = productCards(page).filter({
    has: page.getByRole('heading', { level: 3, name: product.name, exact: true }),
  });
  await productCard.getByRole('button', { name: 'Add to Cart' }).click();
  const drawer = cartDrawer(page);
  await expect(drawer).toBeVisible();
  await expect(drawer.getByText(/^Added .* to cart$/)).toBeVisible();
  await page.waitForFunction(() =>
    document.getAnimations().every((animation) => animation.playState !== 'running'),
  );
  for (const control of [
    drawer.getByRole('heading', { name: 'Your Cart' }),
    drawer.getByRole('button', { name: 'Close cart' }),
    drawer.getByRole('button', { name: 'Checkout' }),
  ]) {
    expect(await hitsItself(control)).toBe(true);
  }
  await saveScreenshot(page, testInfo, 'cart-drawer-toast-375', { fullPage: false });
});
