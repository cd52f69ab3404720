import { render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { beforeEach, describe, expect, it } from 'vitest';

import { AppProvider } from '@/app/provider';
import { CheckoutRoute } from '@/app/routes/checkout';
import { DiscordCallbackRoute } from '@/app/routes/discord-callback';
import { ProductRoute } from '@/app/routes/product';
import { fakeApi, queryClientWithSession } from '@/features/auth/testing/fake-api';
import { useCartStore } from '@/features/cart/stores/cart-store';
import { useDiscordLinkStore } from '@/features/checkout/stores/discord-link-store';
import { DISCORD_RETURN_KEY } from '@/features/checkout/utils/discord-return';
import { makeProduct } from '@/testing/factories';
import { jsonResponse } from '@/testing/test-utils';

const gardenfan = {
  discord_id: '1234567890',
  username: 'gardenfan',
  avatar: 'https://cdn.example/fan.png',
};

/** An upcoming drop, whose page asks for the link before the release. */
const owl = makeProduct({
  id: 21,
  name: 'Night Owl',
  stock: 10,
  released: false,
  release_at: '2099-01-01T00:00:00Z',
  max_per_account: 1,
});

/** The callback page and the pages it returns to (the checkout, a drop's), as the app routes them. */
function renderCallback(url: string) {
  const bee = makeProduct({ id: 1, name: 'Bee' });
  useCartStore.setState({ items: [{ ...bee, qty: 1 }], hydrated: true });
  const queryClient = queryClientWithSession(null);
  queryClient.setQueryData(['products'], [bee, owl]);
  queryClient.setQueryData(['site'], { name: 'Garden Shop', reviews_url: '' });
  const router = createMemoryRouter(
    [
      { path: '/discord/callback', element: <DiscordCallbackRoute /> },
      { path: '/checkout', element: <CheckoutRoute /> },
      { path: '/product/:id', element: <ProductRoute /> },
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
  window.sessionStorage.clear();
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

describe('/discord/callback after a link started on a drop’s page', () => {
  it('returns to the stored page, shows the account there once, and forgets the path', async () => {
    window.sessionStorage.setItem(DISCORD_RETURN_KEY, '/product/21');
    let linked = false;
    const calls = fakeApi({
      'POST /discord-auth': () => {
        linked = true;
        return jsonResponse(gardenfan);
      },
      'GET /discord/identity': () => jsonResponse({ identity: linked ? gardenfan : null }),
    });
    const { router } = renderCallback('/discord/callback?code=abc&state=xyz');
    const notice = await screen.findByText('Discord linked as gardenfan.');
    expect(notice.closest('[role="status"]')).not.toBeNull();
    expect(router.state.location.pathname).toBe('/product/21');
    expect(screen.getByRole('heading', { level: 1, name: 'Night Owl' })).toBeInTheDocument();
    // linked now: the drop no longer asks for it
    expect(screen.queryByRole('link', { name: 'Link Discord' })).not.toBeInTheDocument();
    expect(window.sessionStorage.getItem(DISCORD_RETURN_KEY)).toBeNull();
    // Shown once: the history entry no longer carries it, so a reload does not repeat it.
    await waitFor(() => expect(router.state.location.state).toBeNull());
    expect(router.state.location.pathname).toBe('/product/21');
    expect(screen.getByText('Discord linked as gardenfan.')).toBeInTheDocument();
    expect(calls.filter((c) => c.path === '/discord-auth').map((c) => c.body)).toEqual([
      { code: 'abc', state: 'xyz' },
    ]);
    expect(window.localStorage.getItem('discord_id')).toBe('1234567890');
  });

  it('returns to the stored page with the error when the exchange fails', async () => {
    window.sessionStorage.setItem(DISCORD_RETURN_KEY, '/product/21');
    fakeApi({
      'POST /discord-auth': () =>
        jsonResponse({ message: 'Error while connecting to Discord.' }, 502),
      'GET /discord/identity': () => jsonResponse({ identity: null }),
    });
    const { router } = renderCallback('/discord/callback?code=abc&state=xyz');
    const notice = await screen.findByText('Error while connecting to Discord.');
    expect(notice.closest('[role="alert"]')).not.toBeNull();
    expect(router.state.location.pathname).toBe('/product/21');
    // still unlinked: the drop asks again
    expect(await screen.findByRole('link', { name: 'Link Discord' })).toBeInTheDocument();
    expect(window.sessionStorage.getItem(DISCORD_RETURN_KEY)).toBeNull();
    expect(window.localStorage.getItem('discord_id')).toBeNull();
  });

  it('returns to the stored page when Discord sent no code', async () => {
    window.sessionStorage.setItem(DISCORD_RETURN_KEY, '/product/21');
    const calls = fakeApi({ 'GET /discord/identity': () => jsonResponse({ identity: null }) });
    const { router } = renderCallback('/discord/callback?error=access_denied');
    expect(await screen.findByText('No code returned from Discord')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/product/21');
    expect(calls.filter((c) => c.path === '/discord-auth')).toHaveLength(0);
    expect(window.sessionStorage.getItem(DISCORD_RETURN_KEY)).toBeNull();
  });

  it.each(['//evil.example/product/21', 'https://evil.example/', '/\\evil.example', 'product/21'])(
    'ignores the unsafe path %j: back to /checkout, and forgets it',
    async (stored) => {
      window.sessionStorage.setItem(DISCORD_RETURN_KEY, stored);
      let linked = false;
      fakeApi({
        'POST /discord-auth': () => {
          linked = true;
          return jsonResponse(gardenfan);
        },
        'GET /discord/identity': () => jsonResponse({ identity: linked ? gardenfan : null }),
      });
      const { router } = renderCallback('/discord/callback?code=abc&state=xyz');
      expect(await screen.findByText('Discord linked as gardenfan.')).toBeInTheDocument();
      expect(router.state.location.pathname).toBe('/checkout');
      expect(window.sessionStorage.getItem(DISCORD_RETURN_KEY)).toBeNull();
    },
  );
});
