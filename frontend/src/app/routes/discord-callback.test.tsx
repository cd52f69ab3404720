import { render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { beforeEach, describe, expect, it } from 'vitest';

import { AppProvider } from '@/app/provider';
import { CheckoutRoute } from '@/app/routes/checkout';
import { DiscordCallbackRoute } from '@/app/routes/discord-callback';
import { fakeApi, queryClientWithSession } from '@/features/auth/testing/fake-api';
import { useCartStore } from '@/features/cart/stores/cart-store';
import { useDiscordLinkStore } from '@/features/checkout/stores/discord-link-store';
import { makeProduct } from '@/testing/factories';
import { jsonResponse } from '@/testing/test-utils';

const gardenfan = {
  discord_id: '1234567890',
  username: 'gardenfan',
  avatar: 'https://cdn.example/fan.png',
};

/** The callback page and the checkout it returns to, as the app routes them. */
function renderCallback(url: string) {
  const bee = makeProduct({ id: 1, name: 'Bee' });
  useCartStore.setState({ items: [{ ...bee, qty: 1 }], hydrated: true });
  const queryClient = queryClientWithSession(null);
  queryClient.setQueryData(['products'], [bee]);
  queryClient.setQueryData(['site'], { name: 'Garden Shop', reviews_url: '' });
  const router = createMemoryRouter(
    [
      { path: '/discord/callback', element: <DiscordCallbackRoute /> },
      { path: '/checkout', element: <CheckoutRoute /> },
    ],
    { initialEntries: [url] },
  );
  render(
    <AppProvider queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProvider>,
  );
  return { router };
}

beforeEach(() => {
  useDiscordLinkStore.getState().hydrate();
});

describe('/discord/callback', () => {
  it('exchanges the code once, remembers the account (v2) and returns to /checkout', async () => {
    let linked = false;
    const calls = fakeApi({
      'POST /discord-auth': () => {
        linked = true;
        return jsonResponse(gardenfan);
      },
      'GET /discord/identity': () => jsonResponse({ identity: linked ? gardenfan : null }),
    });
    const { router } = renderCallback('/discord/callback?code=abc&state=xyz');
    expect(await screen.findByText('Discord linked as gardenfan.')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/checkout');
    expect(screen.getByTestId('discord-username')).toHaveTextContent('gardenfan');
    // Shown once: the history entry no longer carries it, so a reload does not repeat it.
    await waitFor(() => expect(router.state.location.state).toBeNull());
    expect(screen.getByText('Discord linked as gardenfan.')).toBeInTheDocument();
    expect(calls.filter((c) => c.path === '/discord-auth').map((c) => c.body)).toEqual([
      { code: 'abc', state: 'xyz' },
    ]);
    expect(window.localStorage.getItem('discord_id')).toBe('1234567890');
    expect(window.localStorage.getItem('discord_username')).toBe('gardenfan');
    expect(window.localStorage.getItem('discord_avatar')).toBe('https://cdn.example/fan.png');
    expect(window.localStorage.getItem('discord_link_version')).toBe('v2');
  });

  it('says "No code returned from Discord" without a code, and calls nothing', async () => {
    const calls = fakeApi({ 'GET /discord/identity': () => jsonResponse({ identity: null }) });
    const { router } = renderCallback('/discord/callback?error=access_denied');
    expect(await screen.findByText('No code returned from Discord')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/checkout');
    expect(calls.filter((c) => c.path === '/discord-auth')).toHaveLength(0);
  });

  it.each([
    [
      'no user id',
      () => jsonResponse({ message: 'Discord login failed: No user ID returned.' }, 400),
      'Discord login failed: No user ID returned.',
    ],
    [
      'Discord unreachable',
      () => jsonResponse({ message: 'Error while connecting to Discord.' }, 502),
      'Error while connecting to Discord.',
    ],
    [
      'an answer without a message',
      () => new Response('Bad gateway', { status: 502 }),
      'Error while connecting to Discord.',
    ],
    [
      'an answer without a user id',
      () => jsonResponse({ discord_id: '', username: '', avatar: null }),
      'Discord login failed: No user ID returned.',
    ],
  ])('returns to /checkout with the message for %s', async (_, handler, message) => {
    fakeApi({
      'POST /discord-auth': handler,
      'GET /discord/identity': () => jsonResponse({ identity: null }),
    });
    const { router } = renderCallback('/discord/callback?code=abc&state=xyz');
    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/checkout');
    await waitFor(() =>
      expect(screen.getByRole('link', { name: 'Link Discord' })).toBeInTheDocument(),
    );
    expect(window.localStorage.getItem('discord_id')).toBeNull();
  });
});
