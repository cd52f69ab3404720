import { screen, within } from '@testing-library/react';
import { createRef } from 'react';
import { describe, expect, it } from 'vitest';

import { Navbar } from '@/app/layout/navbar';
import { sessionQueryKey } from '@/features/auth/api/get-session';
import { fakeApi, makeUser, queryClientWithSession } from '@/features/auth/testing/fake-api';
import type { User } from '@/features/auth/types';
import { jsonResponse, renderWithProviders } from '@/testing/test-utils';

function renderNavbar(user: User | null) {
  return renderWithProviders(<Navbar cartButtonRef={createRef()} />, {
    queryClient: queryClientWithSession(user),
  });
}

const nav = () => within(screen.getByRole('navigation', { name: 'Main' }));

describe('navbar', () => {
  it('offers Login and Register to a visitor', () => {
    fakeApi({});
    renderNavbar(null);
    expect(nav().getByRole('link', { name: 'Login' })).toHaveAttribute('href', '/login');
    expect(nav().getByRole('link', { name: 'Register' })).toHaveAttribute('href', '/register');
    expect(nav().queryByRole('link', { name: /Profile/ })).not.toBeInTheDocument();
    expect(nav().queryByRole('button', { name: 'Logout' })).not.toBeInTheDocument();
    expect(nav().queryByRole('link', { name: 'Admin Panel' })).not.toBeInTheDocument();
  });

  it('shows Profile with the account badge and Logout to a customer, without the Admin Panel', () => {
    fakeApi({});
    renderNavbar(makeUser({ account_type: 'customer' }));
    const profile = nav().getByRole('link', { name: /^Profile/ });
    expect(profile).toHaveAttribute('href', '/profile');
    expect(profile).toHaveTextContent('Customer');
    expect(nav().getByRole('button', { name: 'Logout' })).toBeInTheDocument();
    expect(nav().queryByRole('link', { name: 'Login' })).not.toBeInTheDocument();
    expect(nav().queryByRole('link', { name: 'Admin Panel' })).not.toBeInTheDocument();
  });

  it('shows an admin the Admin badge but not the Admin Panel link', () => {
    fakeApi({});
    renderNavbar(makeUser({ account_type: 'admin' }));
    expect(nav().getByRole('link', { name: /^Profile/ })).toHaveTextContent('Admin');
    expect(nav().queryByRole('link', { name: 'Admin Panel' })).not.toBeInTheDocument();
  });

  it('shows a super_admin the Admin Panel link', () => {
    fakeApi({});
    renderNavbar(makeUser({ account_type: 'super_admin' }));
    expect(nav().getByRole('link', { name: 'Admin Panel' })).toHaveAttribute(
      'href',
      '/admin/products',
    );
    expect(nav().getByRole('link', { name: /^Profile/ })).toHaveTextContent('Super Admin');
  });

  it('logs out and switches back to Login and Register', async () => {
    const calls = fakeApi({ 'POST /logout': () => jsonResponse({ message: 'Logged out.' }) });
    const { user, queryClient } = renderNavbar(makeUser({ account_type: 'super_admin' }));
    await user.click(nav().getByRole('button', { name: 'Logout' }));
    expect(await nav().findByRole('link', { name: 'Login' })).toBeInTheDocument();
    expect(nav().queryByRole('link', { name: 'Admin Panel' })).not.toBeInTheDocument();
    expect(calls.filter((call) => call.method === 'POST')).toEqual([
      { method: 'POST', path: '/logout', body: undefined },
    ]);
    expect(queryClient.getQueryData(sessionQueryKey)).toEqual({ loggedIn: false, user: null });
    expect(await screen.findByText('You are logged out.')).toBeInTheDocument();
  });

  it('stays logged in and says why when logout fails', async () => {
    fakeApi({ 'POST /logout': () => jsonResponse({ message: 'Server busy.' }, 503) });
    const { user } = renderNavbar(makeUser());
    await user.click(nav().getByRole('button', { name: 'Logout' }));
    expect(await screen.findByText('Server busy.')).toBeInTheDocument();
    expect(nav().getByRole('button', { name: 'Logout' })).toBeEnabled();
  });
});
