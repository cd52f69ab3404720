import { expect, test, type Page } from './fixtures';

import {
  codeIn,
  createAccountWithCli,
  expectNoHorizontalScroll,
  expectNoSeriousA11yViolations,
  outboxFiles,
  resetPathIn,
  saveScreenshot,
  waitForMail,
} from './helpers';

/**
 * Accounts against the real server: registration with the code from the mail outbox, login,
 * logout, password reset through the mailed link, the profile, and the staff-only navbar link.
 */

const mainNav = (page: Page) => page.getByRole('navigation', { name: 'Main' });

let counter = 0;
function uniqueEmail(who: string): string {
  counter += 1;
  return `${who}-${Date.now()}-${counter}@example.com`;
}

async function register(page: Page, name: string, email: string, password: string) {
  await page.goto('/register');
  await page.getByLabel('Name', { exact: true }).fill(name);
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByLabel('Confirm password', { exact: true }).fill(password);
  const before = outboxFiles();
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page).toHaveURL(/\/verify-email$/);
  return waitForMail(email, before);
}

async function logIn(page: Page, email: string, password: string) {
  await page.goto('/login');
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
}

async function logOutFromNavbar(page: Page) {
  await mainNav(page).getByRole('button', { name: 'Logout' }).click();
  await expect(mainNav(page).getByRole('link', { name: 'Login' })).toBeVisible();
}

test('a newcomer registers with the mailed code, logs out and in, and resets the password', async ({
  page,
  consoleErrors,
}) => {
  test.slow(); // Several argon2 hashes on a debug build.
  consoleErrors.expectAnswer(422, '/api/verify-code', 'a wrong code first');
  consoleErrors.expectAnswer(401, '/api/login', 'the old password after the reset');
  consoleErrors.expectAnswer(422, '/api/reset-password', 'the used link, a second time');
  const email = uniqueEmail('ann');
  const password = 'sunflower seeds';
  const newPassword = 'tulip bulbs 2026';

  // Register: the code arrives in the outbox.
  const codeMail = await register(page, 'Ann Gardener', email, password);
  await expect(page.getByText('Enter the 6-digit code sent to your email')).toBeVisible();
  await expect(page.getByText(email)).toBeVisible();
  await expect(page.getByRole('button', { name: /Resend code in \d+s/ })).toBeDisabled();

  // A wrong code first, then the right one.
  const code = codeIn(codeMail);
  await page
    .getByLabel('Verification code', { exact: true })
    .fill(code === '000000' ? '111111' : '000000');
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByText('Invalid code. Please try again.')).toBeVisible();
  await page.getByLabel('Verification code', { exact: true }).fill(code);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByText('Verified and logged in! Redirecting...')).toBeVisible();
  await expect(page).toHaveURL(/\/$/, { timeout: 5_000 });
  await expect(mainNav(page).getByRole('link', { name: /^Profile/ })).toContainText('Customer');
  await expect(mainNav(page).getByRole('link', { name: 'Admin Panel' })).toHaveCount(0);

  // The session is on the server: a reload keeps it.
  await page.reload();
  await expect(mainNav(page).getByRole('button', { name: 'Logout' })).toBeVisible();

  await logOutFromNavbar(page);
  await page.reload();
  await expect(mainNav(page).getByRole('link', { name: 'Login' })).toBeVisible();

  // Log in again.
  await logIn(page, email, password);
  await expect(page).toHaveURL(/\/$/);
  await expect(mainNav(page).getByRole('link', { name: /^Profile/ })).toBeVisible();
  // Logged in, /login sends the visitor back to the shop.
  await page.goto('/login');
  await expect(page).toHaveURL(/\/$/);
  await logOutFromNavbar(page);

  // Forgot the password: the reset link arrives in the outbox.
  await page.goto('/forgot-password');
  await page.getByLabel('Email', { exact: true }).fill(email);
  const before = outboxFiles();
  await page.getByRole('button', { name: 'Send Reset Link' }).click();
  await expect(page.getByRole('status')).toContainText(
    'If an account exists for that e-mail, we have sent a password reset link.',
  );
  const resetMail = await waitForMail(email, before);

  await page.goto(resetPathIn(resetMail));
  await expect(page.getByText(email)).toBeVisible();
  await page.getByLabel('New password', { exact: true }).fill(newPassword);
  await page.getByLabel('Confirm new password', { exact: true }).fill(newPassword);
  await page.getByRole('button', { name: 'Reset Password' }).click();
  await expect(page.getByRole('status')).toContainText(
    'Your password has been reset. You can now log in.',
  );
  await expect(page).toHaveURL(/\/login$/, { timeout: 5_000 });

  // The old password no longer works; the new one does.
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByRole('alert')).toContainText('Invalid email or password.');
  await page.getByLabel('Password', { exact: true }).fill(newPassword);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(/\/$/);

  // The link worked once only.
  await page.goto(resetPathIn(resetMail));
  await page.getByLabel('New password', { exact: true }).fill('another one 123');
  await page.getByLabel('Confirm new password', { exact: true }).fill('another one 123');
  await page.getByRole('button', { name: 'Reset Password' }).click();
  await expect(page.getByRole('alert')).toContainText('This reset link is invalid or has expired.');

  // The profile.
  await page.goto('/profile');
  await expect(page.getByRole('heading', { level: 1, name: 'Ann Gardener' })).toBeVisible();
  await expect(page.getByText(email)).toBeVisible();
  await expect(page.getByRole('heading', { name: 'My Orders' })).toBeVisible();
  await expect(page.getByText('You have no orders yet.')).toBeVisible();

  // Logging out on the profile leads to /login, and /profile stays closed.
  await page.locator('main').getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await page.goto('/profile');
  await expect(page).toHaveURL(/\/login$/);
});

test('the super_admin sees the Admin Panel link and the Super Admin badge', async ({ page }) => {
  const email = uniqueEmail('sam');
  createAccountWithCli(email, 'staff password 1', 'super_admin', 'Sam Boss');
  await logIn(page, email, 'staff password 1');
  await expect(page).toHaveURL(/\/$/);
  await expect(mainNav(page).getByRole('link', { name: 'Admin Panel' })).toHaveAttribute(
    'href',
    '/admin/products',
  );
  await expect(mainNav(page).getByRole('link', { name: /^Profile/ })).toContainText('Super Admin');
  await page.goto('/profile');
  await expect(page.getByRole('main').getByText('Super Admin')).toBeVisible();
});

test('an admin gets the Admin badge but no Admin Panel link', async ({ page }) => {
  const email = uniqueEmail('ada');
  createAccountWithCli(email, 'staff password 2', 'admin', 'Ada Helper');
  await logIn(page, email, 'staff password 2');
  await expect(page).toHaveURL(/\/$/);
  await expect(mainNav(page).getByRole('link', { name: /^Profile/ })).toContainText('Admin');
  await expect(mainNav(page).getByRole('link', { name: 'Admin Panel' })).toHaveCount(0);
});

const VIEWPORTS = [
  { width: 375, height: 812 },
  { width: 1280, height: 800 },
];

for (const viewport of VIEWPORTS) {
  test.describe(`accounts forms at ${viewport.width} px`, () => {
    test.use({ viewport });

    test('fit the screen, pass axe, and look right', async ({ page, consoleErrors }, testInfo) => {
      test.slow();
      consoleErrors.expectAnswer(401, '/api/login', 'the login error shown');
      consoleErrors.expectAnswer(422, '/api/send-verification-code', 'the sign-up errors shown');
      const shot = async (name: string) => {
        await expectNoHorizontalScroll(page);
        await expectNoSeriousA11yViolations(page);
        await saveScreenshot(page, testInfo, `auth-${name}-${viewport.width}`);
      };

      await page.goto('/login');
      await expect(page.getByRole('heading', { level: 1, name: 'Log in' })).toBeVisible();
      await shot('login');
      await page.getByLabel('Email', { exact: true }).fill(uniqueEmail('nobody'));
      await page.getByLabel('Password', { exact: true }).fill('wrong password');
      await page.getByRole('button', { name: 'Log in' }).click();
      await expect(page.getByRole('alert')).toContainText('Invalid email or password.');
      await shot('login-error');

      await page.goto('/register');
      await page.getByLabel('Name', { exact: true }).fill('Rae');
      await page.getByLabel('Email', { exact: true }).fill(uniqueEmail('rae'));
      await page.getByLabel('Password', { exact: true }).fill('short');
      await page.getByLabel('Confirm password', { exact: true }).fill('different');
      await page.getByRole('button', { name: 'Create account' }).click();
      await expect(page.getByLabel('Confirm password', { exact: true })).toHaveAttribute(
        'aria-invalid',
        'true',
      );
      await shot('register-errors');

      await page.goto('/verify-email');
      await expect(page.getByRole('link', { name: 'Create an account' })).toBeVisible();
      await shot('verify-email-no-state');

      const email = uniqueEmail('vee');
      await register(page, 'Vee', email, 'sunflower seeds');
      await expect(page.getByLabel('Verification code', { exact: true })).toBeVisible();
      await shot('verify-email');

      await page.goto('/forgot-password');
      await page.getByLabel('Email', { exact: true }).fill(email);
      await page.getByRole('button', { name: 'Send Reset Link' }).click();
      await expect(page.getByRole('status')).toBeVisible();
      await shot('forgot-password-sent');

      await page.goto('/reset-password?token=abc&email=vee%40example.com');
      await expect(page.getByLabel('New password', { exact: true })).toBeVisible();
      await shot('reset-password');
      await page.goto('/reset-password');
      await expect(page.getByText('Invalid or missing token/email.')).toBeVisible();
      await shot('reset-password-missing');

      // The widest navbar: a super_admin with the Admin Panel link, badge and Logout.
      const boss = uniqueEmail('boss');
      createAccountWithCli(boss, 'staff password 3', 'super_admin', 'Bea Boss');
      await logIn(page, boss, 'staff password 3');
      await expect(mainNav(page).getByRole('link', { name: 'Admin Panel' })).toBeVisible();
      await page.goto('/profile');
      await expect(page.getByText('You have no orders yet.')).toBeVisible();
      await shot('profile');
    });
  });
}
