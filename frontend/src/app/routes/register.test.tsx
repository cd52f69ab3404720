import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { RegisterRoute } from '@/app/routes/register';
import {
  fakeApi,
  makeUser,
  queryClientWithSession,
  validationError,
} from '@/features/auth/testing/fake-api';
import { jsonResponse, renderWithProviders } from '@/testing/test-utils';

function renderRegister(queryClient = queryClientWithSession(null)) {
  return renderWithProviders(<RegisterRoute />, {
    url: '/register',
    path: '/register',
    queryClient,
  });
}

const registration = {
  name: 'Ann',
  email: 'ann@example.com',
  password: 'sunflower seeds',
  password_confirmation: 'sunflower seeds',
};

async function fillAndSubmit(user: ReturnType<typeof renderRegister>['user']) {
  await user.type(screen.getByLabelText('Name'), `  ${registration.name} `);
  await user.type(screen.getByLabelText('Email'), registration.email);
  await user.type(screen.getByLabelText(/^Password/), registration.password);
  await user.type(screen.getByLabelText('Confirm password'), registration.password_confirmation);
  await user.click(screen.getByRole('button', { name: 'Create account' }));
}

describe('register page', () => {
  it('has the four labelled fields, a toggle per password and a link to log in', async () => {
    const { user } = renderRegister();
    expect(screen.getByLabelText('Name')).toBeRequired();
    expect(screen.getByLabelText('Email')).toHaveAttribute('type', 'email');
    const password = screen.getByLabelText(/^Password/);
    const confirmation = screen.getByLabelText('Confirm password');
    expect(password).toHaveAttribute('type', 'password');
    expect(confirmation).toHaveAttribute('type', 'password');

    await user.click(screen.getByRole('button', { name: 'Show confirm password' }));
    expect(confirmation).toHaveAttribute('type', 'text');
    expect(password).toHaveAttribute('type', 'password');
    await user.click(screen.getByRole('button', { name: 'Show password' }));
    expect(password).toHaveAttribute('type', 'text');

    expect(screen.getByRole('link', { name: 'Log in' })).toHaveAttribute('href', '/login');
  });

  it('asks for a code and goes to /verify-email carrying what was entered', async () => {
    const calls = fakeApi({
      'POST /send-verification-code': () =>
        jsonResponse({ message: 'We sent a 6-digit code to ann@example.com.', resend_after: 60 }),
    });
    const { user, router } = renderRegister();
    await fillAndSubmit(user);

    expect(await screen.findByText('Another page')).toBeInTheDocument();
    expect(calls).toEqual([
      { method: 'POST', path: '/send-verification-code', body: registration },
    ]);
    expect(router.state.location.pathname).toBe('/verify-email');
    expect(router.state.location.state).toEqual({ registration, resendAfter: 60 });
  });

  it('shows the first 422 message under each field', async () => {
    fakeApi({
      'POST /send-verification-code': () =>
        validationError({
          name: ['The name may not be greater than 100 characters.'],
          email: ['This e-mail is already registered.'],
          password: ['The password must be at least 8 characters.'],
          password_confirmation: ['The passwords do not match.', 'ignored'],
        }),
    });
    const { user, router } = renderRegister();
    await fillAndSubmit(user);

    expect(await screen.findByText('This e-mail is already registered.')).toBeVisible();
    expect(screen.getByLabelText('Name')).toHaveAccessibleDescription(
      'The name may not be greater than 100 characters.',
    );
    expect(screen.getByLabelText('Name')).toHaveFocus();
    expect(screen.getByLabelText('Email')).toHaveAccessibleDescription(
      'This e-mail is already registered.',
    );
    expect(screen.getByLabelText(/^Password/)).toHaveAccessibleDescription(
      'At least 8 characters. The password must be at least 8 characters.',
    );
    expect(screen.getByLabelText('Confirm password')).toHaveAccessibleDescription(
      'The passwords do not match.',
    );
    expect(screen.queryByText('ignored')).not.toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/register');
  });

  it('says why when no code could be sent (e.g. asked again too soon)', async () => {
    fakeApi({
      'POST /send-verification-code': () =>
        jsonResponse({ message: 'Please wait 42 seconds before asking for a new code.' }, 429),
    });
    const { user } = renderRegister();
    await fillAndSubmit(user);
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Please wait 42 seconds before asking for a new code.',
    );
  });

  it('sends a logged-in visitor to the shop', async () => {
    renderRegister(queryClientWithSession(makeUser()));
    expect(await screen.findByText('Another page')).toBeInTheDocument();
  });
});
