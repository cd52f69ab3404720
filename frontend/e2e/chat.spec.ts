import { expect, test, type Page } from './fixtures';

import {
  createAccountWithCli,
  expectInAuditLog,
  expectNoHorizontalScroll,
  expectNoSeriousA11yViolations,
  saveScreenshot,
} from './helpers';

/**
 * The help chat against the real server, with two browsers: a guest asks the assistant, asks
 * for a live agent; an admin joins from the Live Chats panel; they talk both ways; the admin
 * deletes the conversation and the guest's widget starts a fresh assistant chat.
 */

const GREETING_START = "Hi! I'm the Garden Shop assistant.";
const JOINED = 'You are now connected to a live agent.';

async function logIn(page: Page, email: string, password: string) {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(
    page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Logout' }),
  ).toBeVisible();
}

const helpChat = (page: Page) => page.getByRole('dialog', { name: 'Help chat' });
const conversation = (page: Page) => helpChat(page).getByRole('log', { name: 'Conversation' });
const messageBox = (page: Page) => helpChat(page).getByRole('textbox', { name: 'Message' });
const livePanel = (page: Page) => page.getByRole('dialog', { name: 'Live Chats' });

async function say(page: Page, text: string) {
  await messageBox(page).fill(text);
  await messageBox(page).press('Enter');
}

test('a guest gets the bot, then a live agent; they talk both ways until the admin deletes the chat', async ({
  browser,
  consoleErrors,
}, testInfo) => {
  // spec: a 404 means the chat is gone (the admin deleted it), and a fresh AI chat starts
  consoleErrors.expectAnswer(404, /\/api\/chat\/(history|status)/, 'the deleted chat is gone');
  // the staff panel may poll the conversation once more while the delete lands
  consoleErrors.expectAnswer(
    404,
    /\/api\/admin\/chats\/[0-9a-f-]+\/messages/,
    'the admin deleted this chat',
  );
  test.slow(); // Polls of 3 and 5 seconds, two browsers, argon2 on a debug build.
  const adminEmail = `agent-${Date.now()}@example.com`;
  // a long name, as the demo's "Demo Super Admin": the phone's header shows it whole
  createAccountWithCli(adminEmail, 'agent password 1', 'admin', 'Annabelle Agent-Gardener');

  // The guest opens the widget: the fixed greeting, focus in the message box.
  const guestContext = await browser.newContext();
  const guest = await guestContext.newPage();
  await guest.goto('/');
  const launcher = guest.getByRole('button', { name: 'Chat with us' });
  await expect(launcher).toHaveAttribute('aria-expanded', 'false');
  await expect(helpChat(guest)).toHaveCount(0);
  await launcher.click();
  await expect(conversation(guest)).toContainText(GREETING_START);
  await expect(messageBox(guest)).toBeFocused();
  const sessionId = await guest.evaluate(() => window.localStorage.getItem('chat_session_id'));
  expect(sessionId).toMatch(/^[0-9a-f-]{36}$/);

  // The bot answers from the shop's knowledge.
  await say(guest, 'How long does delivery take?');
  await expect(conversation(guest)).toContainText('How long does delivery take?');
  await expect(conversation(guest).locator('.message--theirs').last()).toContainText(/minute/i);
  await expectNoSeriousA11yViolations(guest);
  await saveScreenshot(guest, testInfo, 'chat-widget-1280', { fullPage: false });
  await guest.setViewportSize({ width: 375, height: 740 });
  await expectNoHorizontalScroll(guest);
  await saveScreenshot(guest, testInfo, 'chat-widget-375', { fullPage: false });
  await guest.setViewportSize({ width: 1280, height: 800 });

  // A live agent, please: waiting, and sending is blocked until someone joins.
  await helpChat(guest).getByRole('button', { name: 'Talk to Live Agent' }).click();
  await expect(helpChat(guest).getByRole('status')).toHaveText('Waiting for agent to join...');
  await expect(messageBox(guest)).toBeDisabled();

  // The admin joins from the Live Chats panel.
  const adminContext = await browser.newContext();
  const admin = await adminContext.newPage();
  await logIn(admin, adminEmail, 'agent password 1');
  await admin.getByRole('button', { name: 'Live Chats' }).click();
  const chats = livePanel(admin).getByRole('list', { name: 'Conversations' });
  const guestChat = chats.getByRole('button', { name: /^Guest/ }).filter({
    hasText: 'New',
  });
  await expect(guestChat.first()).toBeVisible();
  await guestChat.first().click();
  await expect(livePanel(admin).getByRole('log')).toContainText('How long does delivery take?');
  await livePanel(admin).getByRole('button', { name: 'Join Chat' }).click();
  await expect(admin.getByText('Chat accepted')).toBeVisible();
  await expect(livePanel(admin).getByRole('button', { name: 'In Progress' })).toBeDisabled();

  // The guest is connected (within a 3-second poll).
  await expect(conversation(guest)).toContainText(JOINED);
  await expect(helpChat(guest).getByText('Waiting for agent to join...')).toHaveCount(0);
  await expect(messageBox(guest)).toBeEnabled();
  // On a phone the header names the agent whole (issue 23: "Demo Super Adm").
  await guest.setViewportSize({ width: 375, height: 740 });
  const subtitle = helpChat(guest).getByText('Live agent: Annabelle Agent-Gardener');
  await expect(subtitle).toBeVisible();
  expect(
    await subtitle.evaluate((element) => element.scrollWidth <= element.clientWidth),
    'the agent line is not cut',
  ).toBe(true);
  await guest.setViewportSize({ width: 1280, height: 800 });

  // Guest -> admin (the panel polls every 5 s).
  await say(guest, 'My Raccoon has not arrived yet');
  await expect(livePanel(admin).getByRole('log')).toContainText('My Raccoon has not arrived yet', {
    timeout: 15_000,
  });
  // Admin -> guest, with the 3-second reply lock.
  const reply = livePanel(admin).getByRole('textbox', { name: 'Reply to Guest' });
  await reply.fill('Joining your private server now!');
  await reply.press('Enter');
  await expect(livePanel(admin).getByRole('button', { name: 'Sending...' })).toBeDisabled();
  await expect(conversation(guest)).toContainText('Joining your private server now!');
  await expect(livePanel(admin).getByRole('button', { name: 'Send', exact: true })).toBeVisible({
    timeout: 5_000,
  });

  await expectNoSeriousA11yViolations(admin);
  await saveScreenshot(admin, testInfo, 'live-chats-1280', { fullPage: false });
  await admin.setViewportSize({ width: 375, height: 740 });
  await expectNoHorizontalScroll(admin);
  await saveScreenshot(admin, testInfo, 'live-chats-375', { fullPage: false });
  await livePanel(admin).getByRole('button', { name: 'All chats' }).click();
  await saveScreenshot(admin, testInfo, 'live-chats-list-375', { fullPage: false });
  await admin.setViewportSize({ width: 1280, height: 800 });
  await saveScreenshot(guest, testInfo, 'chat-widget-connected-1280', { fullPage: false });

  // The admin deletes the conversation after confirming.
  await chats
    .getByRole('button', { name: /^Guest/ })
    .first()
    .click();
  await livePanel(admin).getByRole('button', { name: 'Delete' }).click();
  const confirm = admin.getByRole('alertdialog');
  await expect(confirm).toContainText('Are you sure you want to delete this conversation?');
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(admin.getByText('Conversation deleted.')).toBeVisible();
  await expect(livePanel(admin).getByText('Select a chat')).toBeVisible();
  const auditor = { email: `chat-audit-${Date.now()}@example.com`, password: 'chat audit 1' };
  createAccountWithCli(auditor.email, auditor.password, 'super_admin', 'Cody Auditor');
  await expectInAuditLog(browser, auditor, [
    { name: /^Chat deleted chat:[0-9a-f-]{36}$/, texts: ['By Annabelle Agent-Gardener'] },
  ]);

  // The guest's next poll finds the chat gone: a fresh assistant chat.
  await expect(conversation(guest)).not.toContainText('My Raccoon has not arrived yet');
  await expect(conversation(guest)).toContainText(GREETING_START);
  await expect(helpChat(guest).getByRole('button', { name: 'Talk to Live Agent' })).toBeVisible();
  await expect(messageBox(guest)).toBeEnabled();

  // Escape closes the window and gives focus back to the launcher.
  await messageBox(guest).focus();
  await guest.keyboard.press('Escape');
  await expect(helpChat(guest)).toHaveCount(0);
  await expect(launcher).toBeFocused();

  // The panel closes with its button; the session id stayed the same all along.
  await livePanel(admin).getByRole('button', { name: 'Close Live Chats' }).click();
  await expect(livePanel(admin)).toHaveCount(0);
  expect(await guest.evaluate(() => window.localStorage.getItem('chat_session_id'))).toBe(
    sessionId,
  );

  await adminContext.close();
  await guestContext.close();
});

test('shoppers never see the Live Chats button, and the chat window code loads only on open', async ({
  page,
}) => {
  const loaded: string[] = [];
  page.on('request', (request) => loaded.push(request.url()));
  await page.goto('/');
  await expect(page.getByRole('button', { name: 'Chat with us' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Live Chats' })).toHaveCount(0);
  expect(loaded.some((url) => /chat-window-.*\.js/.test(url))).toBe(false);
  await page.getByRole('button', { name: 'Chat with us' }).click();
  await expect(conversation(page)).toContainText(GREETING_START);
  expect(loaded.some((url) => /chat-window-.*\.js/.test(url))).toBe(true);
});
