import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

import { ForgotPasswordRoute } from '@/app/routes/forgot-password';
import { fakeApi, validationError } from '@/features/auth/testing/fake-api';
import { jsonResponse, renderWithProviders } from '@/testing/test-utils';

const SENT = 'If an account exists for that e-mail, we have sent a password reset link.';

function renderForgot() {
  return renderWithProviders(<ForgotPasswordRoute />, {
    url: '/forgot-password',
    path: '/forgot-password',
  });
}

async function submit(user: ReturnType<typeof renderForgot>['user'], email = 'ann@example.com') {
  await user.type(screen.getByLabelText('Email'), email);
  await user.click(screen.getByRole('button', { name: 'Send Reset Link' }));
}

describe('forgot-password page', () => {
  it("sends the address and shows the server's message", async () => {
    const calls = fakeApi({ 'POST /forgot-password': () => jsonResponse({ message: SENT }) });
    const { user } = renderForgot();
    expect(screen.getByLabelText('Email')).toHaveAttribute('type', 'email');
    expect(screen.getByLabelText('Email')).toBeRequired();
    await submit(user);
    expect(await screen.findByRole('status')).toHaveTextContent(SENT);
    expect(calls).toEqual([
      { method: 'POST', path: '/forgot-password', body: { email: 'ann@example.com' } },
    ]);
    expect(screen.getByRole('link', { name: 'Log in' })).toHaveAttribute('href', '/login');
  });

  it('shows a malformed-address 422 under the field', async () => {
    fakeApi({
      'POST /forgot-password': () =>
        validationError({ email: ['The email must be a valid e-mail address.'] }),
    });
    const { user } = renderForgot();
    await submit(user);
    expect(await screen.findByText('The email must be a valid e-mail address.')).toBeVisible();
    expect(screen.getByLabelText('Email')).toHaveAttribute('aria-invalid', 'true');
  });

  it("shows the server's message when the request fails", async () => {
    fakeApi({
      'POST /forgot-password': () =>
        jsonResponse({ message: 'Too many requests. Try again in 10 minutes.' }, 429),
    });
    const { user } = renderForgot();
    await submit(user);
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Too many requests. Try again in 10 minutes.',
    );
  });

  it('explains a request that never reached the shop', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))),
    );
    const { user } = renderForgot();
    await submit(user);
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'We could not reach the shop. Check your connection and try again.',
    );
  });
});
