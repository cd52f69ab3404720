import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { RequireRole } from '@/app/routes/admin-access';
import { fakeApi, makeUser, queryClientWithSession } from '@/features/auth/testing/fake-api';
import type { User } from '@/features/auth/types';
import { jsonResponse, renderWithProviders } from '@/testing/test-utils';

function renderGuarded(user: User | null) {
  return renderWithProviders(
    <RequireRole role="super_admin">
      <p>The products</p>
    </RequireRole>,
    { url: '/admin/products', path: '/admin/products', queryClient: queryClientWithSession(user) },
  );
}

describe('the access-denied page (issue 23: it names two ways out, so it gives both)', () => {
  it('offers a visitor Log in and Back to the shop', () => {
    fakeApi({});
    renderGuarded(null);
    expect(
      screen.getByRole('heading', { level: 1, name: 'Access denied. Super Admins only.' }),
    ).toBeVisible();
    expect(screen.queryByText('The products')).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Log in' })).toHaveAttribute('href', '/login');
    expect(screen.getByRole('link', { name: 'Back to the shop' })).toHaveAttribute('href', '/');
  });

  it('logs a logged-in customer out before the login page (which sends a session home)', async () => {
    const calls = fakeApi({ 'POST /logout': () => jsonResponse({ message: 'Logged out.' }) });
    const { user, router } = renderGuarded(makeUser({ account_type: 'admin' }));
    expect(screen.getByRole('link', { name: 'Back to the shop' })).toHaveAttribute('href', '/');
    await user.click(screen.getByRole('button', { name: 'Log in as someone else' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(calls.some((call) => call.method === 'POST' && call.path === '/logout')).toBe(true);
  });
});
