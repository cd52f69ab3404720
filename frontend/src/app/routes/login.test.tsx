import { screen, waitFor } from '@testing-library/react';
import i18next from 'i18next';
import { describe, expect, it } from 'vitest';

import { LoginRoute } from '@/app/routes/login';
import { useToastStore } from '@/components/ui/toast';
import { sessionQueryKey } from '@/features/auth/api/get-session';
import {
  fakeApi,
  makeUser,
  queryClientWithSession,
  validationError,
} from '@/features/auth/testing/fake-api';
import { jsonResponse, renderWithProviders } from '@/testing/test-utils';

function renderLogin(queryClient = queryClientWithSession(null)) {
  return renderWithProviders(<LoginRoute />, { url: '/login', path: '/login', queryClient });
}

async function fillAndSubmit(user: ReturnType<typeof renderLogin>['user']) {
  await user.type(screen.getByLabelText('Email'), 'ann@example.com');
  await user.type(screen.getByLabelText('Password'), 'correct horse');
  await user.click(screen.getByRole('button', { name: 'Log in' }));
}

/** The same, in French. */
async function userLogsIn(user: ReturnType<typeof renderLogin>['user']) {
  await user.type(screen.getByLabelText('E-mail'), 'ann@example.com');
  await user.type(screen.getByLabelText('Mot de passe'), 'correct horse');
  await user.click(screen.getByRole('button', { name: 'Se connecter' }));
}

describe('login page', () => {
  it('has labelled email and password fields, a password toggle and links to the other forms', async () => {
    const { user } = renderLogin();
    expect(screen.getByRole('heading', { level: 1, name: 'Log in' })).toBeInTheDocument();
    const email = screen.getByLabelText('Email');
    expect(email).toHaveAttribute('type', 'email');
    expect(email).toBeRequired();
    const password = screen.getByLabelText('Password');
    expect(password).toHaveAttribute('type', 'password');
    expect(password).toBeRequired();

    await user.click(screen.getByRole('button', { name: 'Show password' }));
    expect(password).toHaveAttribute('type', 'text');
    await user.click(screen.getByRole('button', { name: 'Hide password' }));
    expect(password).toHaveAttribute('type', 'password');

    expect(screen.getByRole('link', { name: 'Forgot your password?' })).toHaveAttribute(
      'href',
      '/forgot-password',
    );
    expect(screen.getByRole('link', { name: 'Register' })).toHaveAttribute('href', '/register');
  });

  it('logs in, remembers the user and goes to the shop', async () => {
    const ann = makeUser({ name: 'Ann' });
    const calls = fakeApi({
      'POST /login': () => jsonResponse({ message: 'Logged in.', user: ann }),
      'GET /profile': () => jsonResponse({ user: { ...ann, orders: [], language: null } }),
    });
    const { user, router, queryClient } = renderLogin();
    await fillAndSubmit(user);

    expect(await screen.findByText('Another page')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
    // then, as this browser chose no language, whether the account has one
    await waitFor(() =>
      expect(calls).toEqual([
        {
          method: 'POST',
          path: '/login',
          body: { email: 'ann@example.com', password: 'correct horse' },
        },
        { method: 'GET', path: '/profile', body: undefined },
      ]),
    );
    expect(i18next.language).toBe('en');
    expect(queryClient.getQueryData(sessionQueryKey)).toEqual({ loggedIn: true, user: ann });
    expect(useToastStore.getState().toasts.map((toast) => toast.message)).toEqual([
      'Welcome back, Ann!',
    ]);
  });

  it('takes the account’s language on a browser that chose none, and keeps a browser’s choice', async () => {
    const ann = makeUser({ name: 'Ann' });
    const calls = fakeApi({
      'POST /login': () => jsonResponse({ message: 'Logged in.', user: ann }),
      'GET /profile': () => jsonResponse({ user: { ...ann, orders: [], language: 'de' } }),
    });
    const first = renderLogin();
    await fillAndSubmit(first.user);
    await waitFor(() => expect(i18next.language).toBe('de'));
    expect(document.cookie).toContain('lang=de');
    first.unmount();

    // this browser chose French: the account's German does not override it
    await i18next.changeLanguage('fr');
    document.cookie = 'lang=fr; path=/';
    calls.length = 0;
    const second = renderLogin();
    await userLogsIn(second.user);
    expect(await screen.findByText('Another page')).toBeInTheDocument();
    expect(calls.map(({ method, path }) => `${method} ${path}`)).toEqual(['POST /login']);
    expect(i18next.language).toBe('fr');
  });

  it('shows the first 422 message under each field and focuses the first one', async () => {
    fakeApi({
      'POST /login': () =>
        validationError({
          email: ['The email must be a valid e-mail address.', 'second'],
          password: ['The password field is required.'],
        }),
    });
    const { user } = renderLogin();
    await fillAndSubmit(user);

    const email = screen.getByLabelText('Email');
    expect(await screen.findByText('The email must be a valid e-mail address.')).toBeVisible();
    expect(screen.queryByText('second')).not.toBeInTheDocument();
    expect(email).toHaveAttribute('aria-invalid', 'true');
    expect(email).toHaveAccessibleDescription('The email must be a valid e-mail address.');
    expect(email).toHaveFocus();
    expect(screen.getByLabelText('Password')).toHaveAccessibleDescription(
      'The password field is required.',
    );
  });

  it("shows the server's message for a wrong password and stays on the page", async () => {
    fakeApi({
      'POST /login': () => jsonResponse({ message: 'Invalid email or password.' }, 401),
    });
    const { user, router } = renderLogin();
    await fillAndSubmit(user);
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid email or password.');
    expect(router.state.location.pathname).toBe('/login');
  });

  it('shows the rate-limit message', async () => {
    fakeApi({
      'POST /login': () =>
        jsonResponse({ message: 'Too many attempts. Try again in 15 minutes.' }, 429),
    });
    const { user } = renderLogin();
    await fillAndSubmit(user);
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Too many attempts. Try again in 15 minutes.',
    );
  });

  it('sends a logged-in visitor to the shop', async () => {
    renderLogin(queryClientWithSession(makeUser()));
    expect(await screen.findByText('Another page')).toBeInTheDocument();
  });
});
