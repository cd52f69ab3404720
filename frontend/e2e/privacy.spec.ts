import { readFileSync } from 'node:fs';

import { expect, test } from './fixtures';

import {
  apiLogIn,
  createAccountWithCli,
  expectNoHorizontalScroll,
  expectNoSeriousA11yViolations,
  saveScreenshot,
} from './helpers';

/**
 * The privacy policy's promise on /profile: a shopper downloads their data as JSON and deletes
 * their account with their password, and lands on the storefront logged out.
 */

const stamp = Date.now();
const SHOPPER = { email: `pia-${stamp}@example.com`, password: 'lavender rows 31' };

test('a shopper downloads their data and deletes their account from /profile', async ({
  page,
  baseURL,
  consoleErrors,
}, testInfo) => {
  consoleErrors.expectAnswer(422, '/api/profile', 'a wrong password first');
  if (!baseURL) throw new Error('baseURL is not set');
  createAccountWithCli(SHOPPER.email, SHOPPER.password, 'customer', 'Pia Private');
  await apiLogIn(page.request, baseURL, SHOPPER.email, SHOPPER.password);

  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/profile');
  const yourData = page.getByRole('region', { name: 'Your data' });
  await expect(yourData).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await saveScreenshot(page, testInfo, 'profile-your-data-1280');
  await page.setViewportSize({ width: 375, height: 812 });
  await expectNoHorizontalScroll(page);
  await saveScreenshot(page, testInfo, 'profile-your-data-375');
  await page.setViewportSize({ width: 1280, height: 900 });

  // the download
  const downloading = page.waitForEvent('download');
  await yourData.getByRole('button', { name: 'Download my data' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe('garden-shop-my-data.json');
  const data = JSON.parse(readFileSync(await download.path(), 'utf8')) as {
    profile: { email: string; name: string };
    orders: unknown[];
    chats: unknown[];
  };
  expect(data.profile).toMatchObject({ email: SHOPPER.email, name: 'Pia Private' });
  expect(data.orders).toEqual([]);
  expect(data.chats).toEqual([]);

  // a wrong password keeps the account
  const password = yourData.getByLabel('Your password');
  await password.fill('not my password');
  await yourData.getByRole('button', { name: 'Delete my account' }).click();
  await expect(yourData.getByText('The password is not right.')).toBeVisible();
  await expect(password).toHaveAttribute('aria-invalid', 'true');
  await page.evaluate(() => window.scrollTo(0, 0));
  await saveScreenshot(page, testInfo, 'profile-delete-refused-1280');

  // the right one deletes it: the storefront, logged out
  await password.fill(SHOPPER.password);
  await yourData.getByRole('button', { name: 'Delete my account' }).click();
  await expect(page).toHaveURL(`${baseURL}/`);
  await expect(page.getByText('Your account is deleted. Goodbye!')).toBeVisible();
  await page.goto('/profile');
  await expect(page).toHaveURL(/\/login$/);
  const login = await page.request.post('/api/login', {
    data: SHOPPER,
    headers: { Origin: baseURL },
  });
  expect(login.status()).toBe(401);
});
