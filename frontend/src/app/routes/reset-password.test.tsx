import { act, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { ResetPasswordRoute } from '@/app/routes/reset-password';
import { fakeApi, validationError } from '@/features/auth/testing/fake-api';
import { jsonResponse, renderWithProviders } from '@/testing/test-utils';

const DONE = 'Your password has been reset. You can now log in.';
const EXPIRED = 'This reset link is invalid or has expired.';

function renderReset(search = '?token=abc123&email=ann%40example.com') {
  return renderWithProviders(<ResetPasswordRoute />, {
    url: `/reset-password${search}`,
    path: '/reset-password',
  });
}

async function submit(user: ReturnType<typeof renderReset>['user']) {
  await user.type(screen.getByLabelText(/^New password/), 'new sunflower');
  await user.type(screen.getByLabelText('Confirm new password'), 'new sunflower');
  await user.click(screen.getByRole('button', { name: 'Reset Password' }));
}

describe('reset-password page', () => {
  beforeEach(() => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it.each([
    ['no token', '?email=ann%40example.com'],
    ['no email', '?token=abc123'],
    ['neither', ''],
  ])('says "Invalid or missing token/email." with %s', (_, search) => {
    renderReset(search);
    expect(screen.getByRole('alert')).toHaveTextContent('Invalid or missing token/email.');
    expect(screen.queryByLabelText(/^New password/)).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Ask for a new link' })).toHaveAttribute(
      'href',
      '/forgot-password',
    );
  });

  it('has two password fields with their own toggles', async () => {
    const { user } = renderWithProviders(<ResetPasswordRoute />, {
      url: '/reset-password?token=abc123&email=ann%40example.com',
      path: '/reset-password',
    });
    expect(screen.getByText('ann@example.com')).toBeInTheDocument();
    const password = screen.getByLabelText(/^New password/);
    const confirmation = screen.getByLabelText('Confirm new password');
    await user.click(screen.getByRole('button', { name: 'Show new password' }));
    expect(password).toHaveAttribute('type', 'text');
    expect(confirmation).toHaveAttribute('type', 'password');
    await user.click(screen.getByRole('button', { name: 'Show confirm new password' }));
    expect(confirmation).toHaveAttribute('type', 'text');
  });

  it('resets the password, says so and opens /login after 2 s', async () => {
    const calls = fakeApi({ 'POST /reset-password': () => jsonResponse({ message: DONE }) });
    const { user, router } = renderReset();
    await submit(user);

    expect(await screen.findByRole('status')).toHaveTextContent(DONE);
    expect(calls).toEqual([
      {
        method: 'POST',
        path: '/reset-password',
        body: {
          token: 'abc123',
          email: 'ann@example.com',
          password: 'new sunflower',
          password_confirmation: 'new sunflower',
        },
      },
    ]);
    await act(() => vi.advanceTimersByTimeAsync(1900));
    expect(router.state.location.pathname).toBe('/reset-password');
    await act(() => vi.advanceTimersByTimeAsync(200));
    expect(router.state.location.pathname).toBe('/login');
  });

  it('explains an invalid or expired link and offers a new one', async () => {
    fakeApi({ 'POST /reset-password': () => validationError({ token: [EXPIRED] }, EXPIRED) });
    const { user, router } = renderReset();
    await submit(user);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(EXPIRED);
    expect(screen.getByRole('link', { name: 'Ask for a new link' })).toHaveAttribute(
      'href',
      '/forgot-password',
    );
    await act(() => vi.advanceTimersByTimeAsync(3000));
    expect(router.state.location.pathname).toBe('/reset-password');
  });

  it('shows password rule failures under their fields', async () => {
    fakeApi({
      'POST /reset-password': () =>
        validationError({
          password: ['The password must be at least 8 characters.'],
          password_confirmation: ['The passwords do not match.'],
        }),
    });
    const { user } = renderReset();
    await submit(user);
    expect(await screen.findByText('The passwords do not match.')).toBeVisible();
    expect(screen.getByLabelText(/^New password/)).toHaveAccessibleDescription(
      'At least 8 characters. The password must be at least 8 characters.',
    );
    expect(screen.getByLabelText(/^New password/)).toHaveFocus();
  });

  it("shows the server's message for other failures", async () => {
    fakeApi({
      'POST /reset-password': () => jsonResponse({ message: 'Service unavailable.' }, 503),
    });
    const { user } = renderReset();
    await submit(user);
    expect(await screen.findByRole('alert')).toHaveTextContent('Service unavailable.');
  });
});
