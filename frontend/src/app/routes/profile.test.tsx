import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { ProfileRoute } from '@/app/routes/profile';
import { sessionQueryKey } from '@/features/auth/api/get-session';
import { fakeApi, makeUser, queryClientWithSession } from '@/features/auth/testing/fake-api';
import type { User } from '@/features/auth/types';
import type { Order } from '@/features/profile/api/get-profile';
import { jsonResponse, renderWithProviders } from '@/testing/test-utils';

function renderProfile(user: User | null) {
  return renderWithProviders(<ProfileRoute />, {
    url: '/profile',
    path: '/profile',
    queryClient: queryClientWithSession(user),
  });
}

function profileAnswer(user: User, orders: Order[]) {
  return () => jsonResponse({ user: { ...user, orders } });
}

describe('profile page', () => {
  it('sends a visitor who is not logged in to /login', async () => {
    const { router } = renderProfile(null);
    expect(await screen.findByText('Another page')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
  });

  it('shows the name, the e-mail and the account type', async () => {
    const ann = makeUser({ name: 'Ann Gardener', email: 'ann@example.com' });
    fakeApi({ 'GET /profile': profileAnswer(ann, []) });
    renderProfile(ann);
    expect(screen.getByRole('heading', { level: 1, name: 'Ann Gardener' })).toBeInTheDocument();
    expect(screen.getByText('ann@example.com')).toBeInTheDocument();
    expect(screen.getByText('Customer')).toBeInTheDocument();
    expect(await screen.findByText('You have no orders yet.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Browse products' })).toHaveAttribute('href', '/');
  });

  it.each([
    ['admin', 'Admin'],
    ['super_admin', 'Super Admin'],
  ] as const)('labels the %s account type "%s"', (accountType, label) => {
    const staff = makeUser({ account_type: accountType });
    fakeApi({ 'GET /profile': profileAnswer(staff, []) });
    renderProfile(staff);
    expect(screen.getByText(label)).toBeInTheDocument();
  });

  it('lists the orders with id, total, status (Pending by default) and time', async () => {
    const ann = makeUser();
    fakeApi({
      'GET /profile': profileAnswer(ann, [
        {
          id: 12,
          total: 24.5,
          currency: 'USD',
          amount_paid: 24.5,
          status: 'paid',
          status_label: 'Paid',
          created_at: '2026-11-21T10:00:00Z',
        },
        {
          id: 13,
          // paid in reais: the list shows what the buyer paid
          total: 3,
          currency: 'BRL',
          amount_paid: 16.02,
          status: 'pending',
          status_label: '',
          created_at: '2026-11-22T08:30:00Z',
        },
      ]),
    });
    renderProfile(ann);
    const orders = await screen.findByRole('list', { name: 'Orders' });
    const items = within(orders).getAllByRole('listitem');
    expect(items).toHaveLength(2);
    const [first, second] = items as [HTMLElement, HTMLElement];
    expect(within(first).getByRole('heading', { name: 'Order #12' })).toBeInTheDocument();
    expect(first).toHaveTextContent('$24.50');
    expect(first).toHaveTextContent('Paid');
    const time = first.querySelector('time');
    expect(time).toHaveAttribute('dateTime', '2026-11-21T10:00:00Z');
    expect(time?.textContent).toMatch(/Nov 21, 2026/);
    expect(second).toHaveTextContent('Order #13');
    expect(second).toHaveTextContent('R$16.02');
    expect(second).toHaveTextContent('Pending');
    expect(screen.queryByText('You have no orders yet.')).not.toBeInTheDocument();
  });

  it('says when the orders cannot be loaded and retries', async () => {
    const ann = makeUser();
    let fail = true;
    fakeApi({
      'GET /profile': () =>
        fail ? jsonResponse({ message: 'Server busy.' }, 503) : profileAnswer(ann, [])(),
    });
    const { user } = renderProfile(ann);
    expect(await screen.findByText("We couldn't load your orders")).toBeInTheDocument();
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('You have no orders yet.')).toBeInTheDocument();
  });

  it('logs out and then sends the visitor to /login', async () => {
    const ann = makeUser();
    const calls = fakeApi({
      'GET /profile': profileAnswer(ann, []),
      'POST /logout': () => jsonResponse({ message: 'Logged out.' }),
    });
    const { user, router, queryClient } = renderProfile(ann);
    await screen.findByText('You have no orders yet.');
    expect(queryClient.getQueryData(['profile', ann.id])).toBeDefined();

    await user.click(screen.getByRole('button', { name: 'Logout' }));
    expect(await screen.findByText('Another page')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
    expect(calls.map((call) => `${call.method} ${call.path}`)).toEqual([
      'GET /profile',
      'POST /logout',
    ]);
    expect(queryClient.getQueryData(sessionQueryKey)).toEqual({ loggedIn: false, user: null });
    // Nothing of the previous user stays in the cache.
    expect(queryClient.getQueryData(['profile', ann.id])).toBeUndefined();
  });
});
