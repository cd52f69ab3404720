import { expect, test, type Page } from './fixtures';

import {
  createAccountWithCli,
  expectInAuditLog,
  expectNoHorizontalScroll,
  expectNoSeriousA11yViolations,
  saveScreenshot,
} from './helpers';
import { makePng } from './png';

/** Proofs of delivery against the real server: staff add one with two images, then delete it. */

async function logIn(page: Page, email: string, password: string) {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(
    page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Logout' }),
  ).toBeVisible();
}

const proofCard = (page: Page, items: string) =>
  page.getByRole('article').filter({ hasText: `Enjoy your ${items}` });

test('staff add a proof with two images (a two-column grid) and delete it; shoppers only look', async ({
  page,
  browser,
}, testInfo) => {
  test.slow();
  const email = `proofs-${Date.now()}@example.com`;
  createAccountWithCli(email, 'proofs password 1', 'admin', 'Pat Proofs');
  const items = `Raccoon and 10M Sheckles ${Date.now()}`;

  await logIn(page, email, 'proofs password 1');
  await page.goto('/');
  await page.getByRole('contentinfo').getByRole('link', { name: 'Proofs of Delivery' }).click();
  await expect(page).toHaveURL(/\/proofs$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Proofs of Delivery' })).toBeVisible();

  // The form: validation first, then two real PNGs.
  await page.getByRole('button', { name: 'Add New Proof' }).click();
  const form = page.getByRole('form', { name: 'Add New Proof' });
  await form.getByRole('button', { name: 'Add Proof' }).click();
  await expect(form.getByRole('alert')).toHaveText('Please provide items and at least one image.');
  await form.getByLabel('Items').fill(items);
  await form.getByLabel('Images').setInputFiles([
    {
      name: 'delivery-1.png',
      mimeType: 'image/png',
      buffer: makePng(320, 200, [22, 128, 61], [187, 247, 208]),
    },
    {
      name: 'delivery-2.png',
      mimeType: 'image/png',
      buffer: makePng(320, 200, [194, 65, 12], [255, 237, 213]),
    },
  ]);
  const previews = form.getByRole('list', { name: 'Chosen images' }).getByRole('img');
  await expect(previews).toHaveCount(2);
  // The previews show the files (issue 23: the CSP refused their `blob:` addresses).
  await expect
    .poll(() =>
      previews.evaluateAll((images) =>
        (images as HTMLImageElement[]).map((image) => image.naturalWidth),
      ),
    )
    .toEqual([320, 320]);
  await saveScreenshot(page, testInfo, 'proofs-form-1280', { fullPage: false });
  await form.getByRole('button', { name: 'Add Proof' }).click();

  // Added: the form closed, the proof is the first card, its two images side by side.
  await expect(form).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Add New Proof' })).toBeVisible();
  const card = proofCard(page, items);
  await expect(card).toBeVisible();
  await expect(page.getByRole('article').first()).toContainText(`Enjoy your ${items}`);
  await expect(card.getByRole('heading', { name: 'Completed Order' })).toBeVisible();
  await expect(card.getByText('Proof of Delivery')).toBeVisible();
  const grid = card.getByRole('list', { name: 'Proof images' });
  await expect(grid.getByRole('img')).toHaveCount(2);
  await expect(grid).toHaveAttribute('data-columns', '2');
  const tracks = await grid.evaluate(
    (element) => getComputedStyle(element).gridTemplateColumns.split(' ').length,
  );
  expect(tracks).toBe(2);
  // The server stored and serves both images.
  const sizes = await grid.getByRole('img').evaluateAll((images) =>
    Promise.all(
      (images as HTMLImageElement[]).map(async (image) => {
        image.loading = 'eager';
        await image.decode().catch(() => undefined);
        return image.naturalWidth;
      }),
    ),
  );
  expect(sizes.every((width) => width > 0)).toBe(true);

  await expectNoSeriousA11yViolations(page);
  await saveScreenshot(page, testInfo, 'proofs-1280');
  await page.setViewportSize({ width: 375, height: 740 });
  await expectNoHorizontalScroll(page);
  await saveScreenshot(page, testInfo, 'proofs-375');
  await page.setViewportSize({ width: 1280, height: 800 });

  // A shopper sees the proof, without staff controls.
  const shopperContext = await browser.newContext();
  const shopper = await shopperContext.newPage();
  await shopper.goto('/proofs');
  await expect(proofCard(shopper, items)).toBeVisible();
  await expect(shopper.getByRole('button', { name: 'Add New Proof' })).toHaveCount(0);
  await expect(shopper.getByRole('button', { name: /^Delete/ })).toHaveCount(0);
  await shopperContext.close();

  // Delete: cancel first, then confirm; gone after the server's answer and after a reload.
  await card.getByRole('button', { name: /^Delete/ }).click();
  const confirm = page.getByRole('alertdialog');
  await expect(confirm).toContainText('Are you sure you want to delete this proof?');
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(card).toBeVisible();
  await card.getByRole('button', { name: /^Delete/ }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
  await expect(card).toHaveCount(0);
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Proofs of Delivery' })).toBeVisible();
  await expect(proofCard(page, items)).toHaveCount(0);

  // Both are in the audit log, by this member of staff.
  const auditor = { email: `proofs-audit-${Date.now()}@example.com`, password: 'proofs audit 1' };
  createAccountWithCli(auditor.email, auditor.password, 'super_admin', 'Quinn Auditor');
  await expectInAuditLog(browser, auditor, [
    { name: /^Proof added proof:\d+$/, texts: [items, 'By Pat Proofs'] },
    { name: /^Proof deleted proof:\d+$/, texts: [items, 'By Pat Proofs'] },
  ]);
});
