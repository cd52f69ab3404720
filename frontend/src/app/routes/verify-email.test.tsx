import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createMemoryRouter, RouterProvider } from 'react-router';

import { AppProvider } from '@/app/provider';
import { VerifyEmailRoute } from '@/app/routes/verify-email';
import { sessionQueryKey } from '@/features/auth/api/get-session';
import {
  fakeApi,
  makeUser,
  queryClientWithSession,
  validationError,
} from '@/features/auth/testing/fake-api';
import type { VerifyEmailState } from '@/features/auth/utils/verify-email-state';
import { jsonResponse } from '@/testing/test-utils';

const registration = {
  name: 'Ann',
  email: 'ann@example.com',
  password: 'sunflower seeds',
  password_confirmation: 'sunflower seeds',
};

function renderVerify(state: VerifyEmailState | null = { registration, resendAfter: 60 }) {
  const queryClient = queryClientWithSession(null);
  const router = createMemoryRouter(
    [
      { path: '/verify-email', element: <VerifyEmailRoute /> },
      { path: '*', element: <p>Another page</p> },
    ],
    { initialEntries: [{ pathname: '/verify-email', state }] },
  );
  const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
  render(
    <AppProvider queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProvider>,
  );
  return { user, router, queryClient };
}

const codeInput = () => screen.getByLabelText('Verification code');

describe('verify-email page', () => {
  beforeEach(() => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('shows where the code went and a 6-digit numeric code input', async () => {
    const { user } = renderVerify();
    expect(screen.getByText('Enter the 6-digit code sent to your email')).toBeInTheDocument();
    expect(screen.getByText('ann@example.com')).toBeInTheDocument();
    const input = codeInput();
    expect(input).toHaveAttribute('maxLength', '6');
    expect(input).toHaveAttribute('inputMode', 'numeric');
    expect(input).toHaveAttribute('autoComplete', 'one-time-code');
    expect(input).toBeRequired();
    await user.type(input, '12a3 4567');
    expect(input).toHaveValue('123456');
  });

  it('verifies, says so, logs in and goes to the shop after 1.5 s', async () => {
    const ann = makeUser({ name: 'Ann', email: 'ann@example.com' });
    const calls = fakeApi({
      'POST /verify-code': () => jsonResponse({ message: 'Verified and logged in!', user: ann }),
    });
    const { user, router, queryClient } = renderVerify();
    await user.type(codeInput(), '123456');
    await user.click(screen.getByRole('button', { name: 'Verify' }));

    expect(await screen.findByText('Verified and logged in! Redirecting...')).toBeVisible();
    expect(calls).toEqual([
      { method: 'POST', path: '/verify-code', body: { ...registration, code: '123456' } },
    ]);
    expect(queryClient.getQueryData(sessionQueryKey)).toEqual({ loggedIn: true, user: ann });

    await act(() => vi.advanceTimersByTimeAsync(1400));
    expect(router.state.location.pathname).toBe('/verify-email');
    await act(() => vi.advanceTimersByTimeAsync(200));
    expect(router.state.location.pathname).toBe('/');
    expect(screen.getByText('Another page')).toBeInTheDocument();
  });

  it('says "Invalid code. Please try again." for a wrong code', async () => {
    fakeApi({
      'POST /verify-code': () =>
        validationError(
          { code: ['Invalid code. Please try again.'] },
          'Invalid code. Please try again.',
        ),
    });
    const { user, router } = renderVerify();
    await user.type(codeInput(), '000000');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid code. Please try again.');
    expect(codeInput()).toHaveAttribute('aria-invalid', 'true');
    expect(router.state.location.pathname).toBe('/verify-email');
  });

  it("shows the server's message for an expired code and after too many attempts", async () => {
    let answer = validationError(
      { code: ['This code has expired. Ask for a new one.'] },
      'This code has expired. Ask for a new one.',
    );
    fakeApi({ 'POST /verify-code': () => answer });
    const { user } = renderVerify();
    await user.type(codeInput(), '111111');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'This code has expired. Ask for a new one.',
    );

    answer = jsonResponse({ message: 'Too many attempts. Ask for a new code.' }, 429);
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('Too many attempts. Ask for a new code.')).toBeVisible();
  });

  it('offers "Resend code" after a 60 s countdown, then counts down again', async () => {
    const calls = fakeApi({
      'POST /send-verification-code': () =>
        jsonResponse({ message: 'We sent a 6-digit code to ann@example.com.', resend_after: 60 }),
    });
    const { user } = renderVerify();
    const resend = screen.getByRole('button', { name: /Resend code/ });
    expect(resend).toHaveTextContent('Resend code in 60s');
    expect(resend).toBeDisabled();

    await act(() => vi.advanceTimersByTimeAsync(30_000));
    expect(resend).toHaveTextContent('Resend code in 30s');
    expect(resend).toBeDisabled();
    await act(() => vi.advanceTimersByTimeAsync(30_000));
    expect(resend).toHaveTextContent(/^Resend code$/);
    expect(resend).toBeEnabled();

    await user.click(resend);
    expect(await screen.findByRole('status')).toHaveTextContent(
      'We sent a 6-digit code to ann@example.com.',
    );
    expect(calls).toEqual([
      { method: 'POST', path: '/send-verification-code', body: registration },
    ]);
    expect(resend).toHaveTextContent('Resend code in 60s');
    expect(resend).toBeDisabled();
  });

  it('shows why a new code was refused', async () => {
    fakeApi({
      'POST /send-verification-code': () =>
        jsonResponse({ message: 'Please wait 12 seconds before asking for a new code.' }, 429),
    });
    const { user } = renderVerify({ registration, resendAfter: 0 });
    await user.click(screen.getByRole('button', { name: 'Resend code' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Please wait 12 seconds before asking for a new code.',
    );
  });

  it('without a registration to verify, points to /register', () => {
    renderVerify(null);
    expect(screen.queryByLabelText('Verification code')).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Create an account' })).toHaveAttribute(
      'href',
      '/register',
    );
  });
});
