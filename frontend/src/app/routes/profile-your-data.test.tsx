import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { ProfileRoute } from '@/app/routes/profile';
import { toast } from '@/components/ui/toast';
import { sessionQueryKey } from '@/features/auth/api/get-session';
import {
  fakeApi,
  makeUser,
  queryClientWithSession,
  validationError,
} from '@/features/auth/testing/fake-api';
import type { User } from '@/features/auth/types';
import { jsonResponse, renderWithProviders } from '@/testing/test-utils';

function renderProfile(user: User) {
  return renderWithProviders(<ProfileRoute />, {
    url: '/profile',
    path: '/profile',
    queryClient: queryClientWithSession(user),
  });
}

function profileAnswer(user: User) {
  return () => jsonResponse({ user: { ...user, orders: [] } });
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('your data on the profile page', () => {
  it('is offered to customers only', async () => {
    const admin = makeUser({ account_type: 'admin' });
    fakeApi({ 'GET /profile': profileAnswer(admin) });
    renderProfile(admin);
    expect(await screen.findByText('You have no orders yet.')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Your data' })).not.toBeInTheDocument();
  });

  it('downloads the data as a JSON file', async () => {
    const ann = makeUser();
    const calls = fakeApi({
      'GET /profile': profileAnswer(ann),
      'GET /profile/export': () => jsonResponse({ profile: { email: ann.email } }),
    });
    const createObjectURL = vi.fn(() => 'blob:my-data');
    const revokeObjectURL = vi.fn();
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL }));
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    const { user } = renderProfile(ann);

    await user.click(screen.getByRole('button', { name: 'Download my data' }));
    await vi.waitFor(() => expect(click).toHaveBeenCalledTimes(1));
    expect(calls.some((c) => c.method === 'GET' && c.path === '/profile/export')).toBe(true);
    const link = click.mock.contexts[0] as HTMLAnchorElement;
    expect(link.download).toBe('garden-shop-my-data.json');
    expect(link.href).toBe('blob:my-data');
    expect(revokeObjectURL).toHaveBeenCalledWith('blob:my-data');
  });

  it('shows why a deletion was refused and keeps the shopper here', async () => {
    const ann = makeUser();
    let answer = 0;
    fakeApi({
      'GET /profile': profileAnswer(ann),
      'DELETE /profile': () =>
        ++answer === 1
          ? validationError({ password: ['The password is not right.'] })
          : jsonResponse(
              {
                message:
                  'You have 1 order waiting for payment or delivery. You can delete your account once they are delivered or closed.',
                errors: {},
              },
              409,
            ),
    });
    const { user, router } = renderProfile(ann);
    const form = screen.getByRole('heading', { name: 'Delete my account' }).closest('form');
    if (!form) throw new Error('no deletion form');

    await user.type(within(form).getByLabelText('Your password'), 'guess');
    await user.click(within(form).getByRole('button', { name: 'Delete my account' }));
    expect(await within(form).findByText('The password is not right.')).toBeInTheDocument();
    expect(within(form).getByLabelText('Your password')).toHaveAttribute('aria-invalid', 'true');

    await user.click(within(form).getByRole('button', { name: 'Delete my account' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent(
      'You have 1 order waiting for payment or delivery.',
    );
    expect(router.state.location.pathname).toBe('/profile');
  });

  it('deletes the account with the password, logs out and leaves for the storefront', async () => {
    const ann = makeUser();
    const calls = fakeApi({
      'GET /profile': profileAnswer(ann),
      'DELETE /profile': () => new Response(null, { status: 204 }),
    });
    const success = vi.spyOn(toast, 'success');
    const { user, router, queryClient } = renderProfile(ann);

    await user.type(screen.getByLabelText('Your password'), 'correct horse battery');
    await user.click(screen.getByRole('button', { name: 'Delete my account' }));

    expect(await screen.findByText('Another page')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
    expect(calls).toContainEqual({
      method: 'DELETE',
      path: '/profile',
      body: { password: 'correct horse battery' },
    });
    expect(queryClient.getQueryData(sessionQueryKey)).toMatchObject({ loggedIn: false });
    // (the test's Toaster lives on the /profile route, which is gone)
    expect(success).toHaveBeenCalledWith('Your account is deleted. Goodbye!');
  });
});
