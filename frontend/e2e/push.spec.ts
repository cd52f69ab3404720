import { expect, test, type Browser, type BrowserContext, type Page } from './fixtures';

import {
  apiLogIn,
  createAccountWithCli,
  fillDetails,
  linkDiscord,
  openCheckoutWith,
  payByCardOnDevPage,
  productCards,
  shopUrl,
} from './helpers';

/**
 * Server push (GET /api/events) against the real server. With the spec's polling switched off
 * (the test switch `localStorage['garden-shop:poll'] = 'off'`), only the stream can carry a
 * change: a guest and an agent talk, an order turns Paid on /success, a stock change shows on
 * an open home page. With the stream blocked (every /api/events request aborted), polling
 * carries the same conversation.
 */

const stamp = Date.now();
const AGENT = { email: `push-agent-${stamp}@example.com`, password: 'agent password 9' };
const OWNER = { email: `push-owner-${stamp}@example.com`, password: 'owner password 9' };
const JOINED = 'You are now connected to a live agent.';

test.beforeAll(() => {
  createAccountWithCli(AGENT.email, AGENT.password, 'admin', 'Pia Push');
  createAccountWithCli(OWNER.email, OWNER.password, 'super_admin', 'Otto Owner');
});

const helpChat = (page: Page) => page.getByRole('dialog', { name: 'Help chat' });
const conversation = (page: Page) => helpChat(page).getByRole('log', { name: 'Conversation' });
const messageBox = (page: Page) => helpChat(page).getByRole('textbox', { name: 'Message' });
const livePanel = (page: Page) => page.getByRole('dialog', { name: 'Live Chats' });

type Mode = 'stream only' | 'polling only';

/** A browser context in `mode`: polling switched off, or the event stream blocked. */
async function contextIn(browser: Browser, mode: Mode): Promise<BrowserContext> {
  const context = await browser.newContext();
  if (mode === 'stream only') {
    await context.addInitScript(() => {
      try {
        window.localStorage.setItem('garden-shop:poll', 'off');
      } catch {
        // a blank page before the shop's (no storage there): the shop's own page sets it
      }
    });
  } else {
    await context.route('**/api/events*', (route) => route.abort());
  }
  return context;
}

async function logIn(page: Page, email: string, password: string) {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(
    page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Logout' }),
  ).toBeVisible();
}

async function say(page: Page, text: string) {
  await messageBox(page).fill(text);
  await messageBox(page).press('Enter');
}

for (const mode of ['stream only', 'polling only'] as const) {
  test(`a guest and an agent see each other's messages (${mode})`, async ({
    browser,
    consoleErrors,
  }) => {
    test.slow();
    // deleted by the agent at the end: spec, a 404 means the chat is gone
    consoleErrors.expectAnswer(
      404,
      /\/api\/(chat\/(history|status)|admin\/chats\/[0-9a-f-]+\/messages)/,
      'the deleted chat is gone',
    );
    if (mode === 'polling only') {
      consoleErrors.expect(
        /^(request failed: GET|console error: Failed to load resource: net::ERR_FAILED \(at) https?:\/\/[^/]+\/api\/events\?/,
        'the test blocks every stream',
      );
    }
    const guestContext = await contextIn(browser, mode);
    const adminContext = await contextIn(browser, mode);
    const streams: string[] = [];
    try {
      const guest = await guestContext.newPage();
      guest.on('response', (response) => {
        if (response.url().includes('/api/events')) streams.push(response.url());
      });
      await guest.goto('/');
      await guest.getByRole('button', { name: 'Chat with us' }).click();
      await expect(conversation(guest)).toContainText("Hi! I'm the Garden Shop assistant.");
      const question = `Where is order ${mode} ${stamp}?`;
      await say(guest, question);
      await helpChat(guest).getByRole('button', { name: 'Talk to Live Agent' }).click();
      await expect(helpChat(guest).getByRole('status')).toHaveText('Waiting for agent to join...');

      const admin = await adminContext.newPage();
      await logIn(admin, AGENT.email, AGENT.password);
      await admin.getByRole('button', { name: 'Live Chats' }).click();
      // the newest activity comes first: this guest's request
      const chat = livePanel(admin)
        .getByRole('list', { name: 'Conversations' })
        .getByRole('button', { name: /^Guest/ })
        .filter({ hasText: 'New' });
      await expect(chat.first()).toBeVisible();
      await chat.first().click();
      await expect(livePanel(admin).getByRole('log')).toContainText(question);
      await livePanel(admin).getByRole('button', { name: 'Join Chat' }).click();

      // the guest hears the join, and each side the other's message
      await expect(conversation(guest)).toContainText(JOINED);
      await expect(messageBox(guest)).toBeEnabled();
      await say(guest, `guest says hi (${mode})`);
      await expect(livePanel(admin).getByRole('log')).toContainText(`guest says hi (${mode})`);
      const reply = livePanel(admin).getByRole('textbox', { name: 'Reply to Guest' });
      await reply.fill(`agent answers (${mode})`);
      await reply.press('Enter');
      await expect(conversation(guest)).toContainText(`agent answers (${mode})`);

      if (mode === 'stream only') {
        expect(streams.length, 'the stream was open').toBeGreaterThan(0);
      } else {
        expect(streams, 'no stream got through').toHaveLength(0);
      }
      // the agent ends it, so the next run's list starts clean
      await livePanel(admin).getByRole('button', { name: 'Delete' }).click();
      await admin.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
      await expect(admin.getByText('Conversation deleted.')).toBeVisible();
    } finally {
      await adminContext.close();
      await guestContext.close();
    }
  });
}

test('an open home page shows a stock change and /success turns Paid when the payment lands (stream only)', async ({
  browser,
  playwright,
  request,
}) => {
  test.slow();
  const base = shopUrl();
  const owner = await playwright.request.newContext({ baseURL: base });
  await apiLogIn(owner, base, OWNER.email, OWNER.password);
  const name = `Push ${stamp} Lantern`;
  const created = await owner.post('/api/admin/products', {
    multipart: { name, price: '4.50', category: 'Pets', description: 'Push test.', stock: '7' },
    headers: { Origin: base },
  });
  expect(created.status(), await created.text()).toBe(201);
  const lantern = (await created.json()) as { id: number };

  const context = await contextIn(browser, 'stream only');
  try {
    const page = await context.newPage();
    await page.goto('/');
    const card = productCards(page).filter({ hasText: name });
    await expect(card).toContainText('7 Stock Left');

    // staff change the stock in their own browser: the open page follows
    const changed = await owner.post(`/api/admin/products/${lantern.id}/inventory`, {
      data: { inventory: 3 },
      headers: { Origin: base },
    });
    expect(changed.status(), await changed.text()).toBe(200);
    await expect(card).toContainText('3 Stock Left');

    // an order left on the payment page; its /success page waits, then turns Paid
    await openCheckoutWith(page, request, [[lantern.id, 1]]);
    await linkDiscord(page);
    await fillDetails(page, 'PushFan_3');
    const orderId = await payByCardOnDevPage(page);
    await page.goto(`/success?order_id=${orderId}`);
    await expect(page.getByTestId('order-page-status')).toHaveText('Pending');
    // the provider's confirmation arrives (the dev page's Pay takes the webhook's path)
    const paid = await page.request.post(`/dev/pay/${orderId}/pay`, {
      headers: { Origin: base },
      form: {},
      maxRedirects: 0,
    });
    expect(paid.status()).toBe(303);
    await expect(page.getByTestId('order-page-status')).toHaveText('Paid');
  } finally {
    await context.close();
    await owner.delete(`/api/admin/products/${lantern.id}`, { headers: { Origin: base } });
    await owner.dispose();
  }
});
