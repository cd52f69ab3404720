import { expect, test, type Page } from './fixtures';

import {
  createAccountWithCli,
  expectInAuditLog,
  expectNoHorizontalScroll,
  expectNoSeriousA11yViolations,
  saveScreenshot,
} from './helpers';

/**
 * The promo codes screen against the real server (issue 23 item 8): a super_admin adds a code,
 * sees it listed with its uses and limit, edits its discount and limit, switches it off and on,
 * deletes a code nobody used, and finds the changes in the audit log; at 1280 and 375 px.
 */

const stamp = Date.now();
const SUPER_ADMIN = { email: `pia-${stamp}@example.com`, password: 'poppy fields 31' };
// codes of this run only: letters and digits, at most 32
const CODE = `E2E${stamp}`.slice(0, 20);
const SPARE = `SPARE${stamp}`.slice(0, 20);

async function logIn(page: Page) {
  await page.goto('/login');
  await page.getByLabel('Email').fill(SUPER_ADMIN.email);
  await page.getByLabel('Password', { exact: true }).fill(SUPER_ADMIN.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(/\/$/);
}

async function addCode(page: Page, code: string, percent: string, maxUses = '') {
  await page.getByRole('button', { name: 'Add Promo Code' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Add promo code' });
  await dialog.getByRole('textbox', { name: 'Code' }).fill(code);
  await dialog.getByRole('textbox', { name: 'Discount (%)' }).fill(percent);
  if (maxUses) await dialog.getByRole('textbox', { name: /Maximum uses/ }).fill(maxUses);
  await dialog.getByRole('button', { name: 'Create promo code' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('listitem', { name: code })).toBeVisible();
}

test.beforeAll(() => {
  createAccountWithCli(SUPER_ADMIN.email, SUPER_ADMIN.password, 'super_admin', 'Pia Promo');
});

test('a super_admin lists, edits, switches off and deletes promo codes', async ({
  page,
  browser,
}, testInfo) => {
  test.slow(); // two viewports, screenshots and the audit log in a second browser
  await page.setViewportSize({ width: 1280, height: 800 });
  await logIn(page);
  await page.goto('/admin/products');
  await page
    .getByRole('navigation', { name: 'Admin tools' })
    .getByRole('link', { name: 'Promo codes' })
    .click();
  await expect(page).toHaveURL(/\/admin\/promo-codes$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Promo codes' })).toBeVisible();

  await addCode(page, CODE, '15', '50');
  await addCode(page, SPARE, '5');
  const entry = page.getByRole('listitem', { name: CODE });
  await expect(entry).toContainText('15% off');
  await expect(entry).toContainText('Active');
  await expect(entry).toContainText('Used 0 of 50');
  await expect(entry).toContainText('Never expires');
  await expectNoHorizontalScroll(page);
  await expectNoSeriousA11yViolations(page);
  await saveScreenshot(page, testInfo, 'admin-promo-codes-1280');

  await entry.getByRole('button', { name: `Edit ${CODE}` }).click();
  const dialog = page.getByRole('dialog', { name: `Edit ${CODE}` });
  await expect(dialog).toContainText('Used 0 times so far');
  await dialog.getByRole('textbox', { name: 'Discount (%)' }).fill('20');
  await dialog.getByRole('textbox', { name: /Maximum uses/ }).fill('');
  await expectNoSeriousA11yViolations(page);
  await saveScreenshot(page, testInfo, 'admin-promo-edit-1280', { fullPage: false });
  await dialog.getByRole('button', { name: 'Save changes' }).click();
  await expect(dialog).toBeHidden();
  await expect(entry).toContainText('20% off');
  await expect(entry).toContainText('Used 0 · no limit');

  await entry.getByRole('button', { name: `Deactivate ${CODE}` }).click();
  await expect(entry).toContainText('Inactive');
  await expect(entry.getByRole('button', { name: `Activate ${CODE}` })).toBeVisible();

  const spare = page.getByRole('listitem', { name: SPARE });
  await spare.getByRole('button', { name: `Delete ${SPARE}` }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
  await expect(spare).toBeHidden();

  // a phone: the buttons go under each code, nothing scrolls sideways
  await page.setViewportSize({ width: 375, height: 812 });
  await page.reload();
  await expect(entry).toContainText('Inactive');
  await expectNoHorizontalScroll(page);
  await saveScreenshot(page, testInfo, 'admin-promo-codes-375');
  await entry.getByRole('button', { name: `Edit ${CODE}` }).click();
  await expect(dialog).toBeVisible();
  await expectNoHorizontalScroll(page);
  await saveScreenshot(page, testInfo, 'admin-promo-edit-375', { fullPage: false });
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  await expectInAuditLog(browser, SUPER_ADMIN, [
    { name: new RegExp(`^Promo code changed`), texts: ['By Pia Promo'] },
    { name: new RegExp(`^Promo code deleted`), texts: ['By Pia Promo'] },
  ]);
});
