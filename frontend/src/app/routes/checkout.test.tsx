import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { CheckoutRoute } from '@/app/routes/checkout';
import { fakeApi, makeUser, queryClientWithSession } from '@/features/auth/testing/fake-api';
import type { User } from '@/features/auth/types';
import { retryDelay, retryTiming } from '@/features/checkout/api/start-payment';
import { CHECKOUT_DETAILS_KEY } from '@/features/checkout/hooks/use-checkout-details';
import { useDiscordLinkStore } from '@/features/checkout/stores/discord-link-store';
import { DISCORD_RETURN_KEY } from '@/features/checkout/utils/discord-return';
import { redirectTo } from '@/features/checkout/utils/redirect';
import { useCartStore } from '@/features/cart/stores/cart-store';
import { makeProduct } from '@/testing/factories';
import { jsonResponse, renderWithProviders } from '@/testing/test-utils';
import { chooseCurrency, offerCurrencies } from '@/lib/currency-choice';
import type { Product } from '@/types/api';

vi.mock('@/features/checkout/utils/redirect', () => ({ redirectTo: vi.fn() }));

const bee = makeProduct({ id: 1, name: 'Bee', price: 4.99, stock: null });
const raccoon = makeProduct({ id: 3, name: 'Raccoon', price: 0.02, stock: 5 });
const gardenfan = { discord_id: '1234567890', username: 'gardenfan', avatar: null };

type Setup = {
  products?: Product[];
  cart?: Array<[Product, number]>;
  user?: User | null;
  paypal?: boolean;
};

function fillCart(cart: Array<[Product, number]>) {
  useCartStore.setState({
    items: cart.map(([product, qty]) => ({ ...product, qty })),
    hydrated: true,
  });
}

function renderCheckout({
  products = [bee, raccoon],
  cart = [
    [bee, 2],
    [raccoon, 1],
  ],
  user = null,
  paypal = false,
}: Setup = {}) {
  fillCart(cart);
  const queryClient = queryClientWithSession(user);
  queryClient.setQueryData(['products'], products);
  queryClient.setQueryData(['site'], {
    name: 'Garden Shop',
    reviews_url: 'https://reviews.example',
    paypal_enabled: paypal,
  });
  return renderWithProviders(<CheckoutRoute />, {
    url: '/checkout',
    path: '/checkout',
    queryClient,
  });
}

const linked = () => jsonResponse({ identity: gardenfan });
const builderman = () =>
  jsonResponse({ username: 'Builderman', avatar_url: 'https://img.example/b.png' });
const unlinked = () => jsonResponse({ identity: null });

async function fillDetails(user: ReturnType<typeof renderCheckout>['user']) {
  await user.type(screen.getByLabelText('Roblox username'), 'Builderman');
  await user.type(screen.getByLabelText('Email'), 'ann@example.com');
}

beforeEach(() => {
  window.sessionStorage.clear();
  useDiscordLinkStore.getState().hydrate();
  vi.mocked(redirectTo).mockReset();
  // a press's automatic retries go at once: these tests are about what the page shows after
  // them (their waits are pinned in start-payment.test.ts)
  retryTiming.delay = () => 0;
});

afterEach(() => {
  retryTiming.delay = retryDelay;
});

describe('checkout page: summary and amounts', () => {
  it('shows an empty state with a way home when the cart is empty', () => {
    fakeApi({ 'GET /discord/identity': unlinked });
    renderCheckout({ cart: [] });
    expect(screen.getByRole('heading', { name: 'Your cart is empty' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Browse products' })).toHaveAttribute('href', '/');
    expect(screen.queryByRole('button', { name: 'Complete Payment' })).not.toBeInTheDocument();
  });

  it('lists each line with its quantity and price, then subtotal, fee and total', () => {
    fakeApi({ 'GET /discord/identity': unlinked });
    renderCheckout();
    const lines = within(screen.getByRole('list', { name: 'Items in your order' }));
    const [first, second] = lines.getAllByRole('listitem') as [HTMLElement, HTMLElement];
    expect(first).toHaveTextContent('Bee');
    expect(first).toHaveTextContent('× 2');
    expect(first).toHaveTextContent('$9.98');
    expect(second).toHaveTextContent('Raccoon');
    expect(second).toHaveTextContent('$0.02');
    // 10.00 -> (10.00 + 0.30) / 0.956 = 10.774 -> 10.77: a fee of 0.77
    expect(screen.getByTestId('checkout-subtotal')).toHaveTextContent('$10.00');
    expect(screen.getByTestId('checkout-discount')).toHaveTextContent('$0.00');
    expect(screen.getByText('Processing fee')).toBeInTheDocument();
    expect(screen.getByTestId('checkout-fee')).toHaveTextContent('$0.77');
    expect(screen.getByTestId('checkout-total')).toHaveTextContent('$10.77');
  });

  it('rounds the fee half-up to the cent without drift (0.66 -> 1.00, 0.67 -> 1.01)', () => {
    fakeApi({ 'GET /discord/identity': unlinked });
    const cheap = makeProduct({ id: 9, name: 'Seed', price: 0.67 });
    renderCheckout({ products: [cheap], cart: [[cheap, 1]] });
    expect(screen.getByTestId('checkout-fee')).toHaveTextContent('$0.34');
    expect(screen.getByTestId('checkout-total')).toHaveTextContent('$1.01');
  });
});

describe('checkout page: Discord link', () => {
  it('returns to the checkout: its Link Discord forgets a path a drop’s page left', async () => {
    fakeApi({ 'GET /discord/identity': unlinked });
    window.sessionStorage.setItem(DISCORD_RETURN_KEY, '/product/21');
    renderCheckout();
    const link = await screen.findByRole('link', { name: 'Link Discord' });
    // jsdom cannot follow the link: stop the browser's navigation after the page's handlers
    const stay = (event: Event) => event.preventDefault();
    document.addEventListener('click', stay);
    try {
      act(() => link.click());
    } finally {
      document.removeEventListener('click', stay);
    }
    expect(window.sessionStorage.getItem(DISCORD_RETURN_KEY)).toBeNull();
  });

  it('offers Link Discord, which goes to the server authorization', async () => {
    fakeApi({ 'GET /discord/identity': unlinked });
    renderCheckout();
    expect(await screen.findByRole('link', { name: 'Link Discord' })).toHaveAttribute(
      'href',
      '/api/discord/authorize',
    );
  });

  it('shows the account the server has linked and saves it with the v2 marker', async () => {
    fakeApi({ 'GET /discord/identity': linked });
    renderCheckout();
    expect(await screen.findByTestId('discord-username')).toHaveTextContent('gardenfan');
    expect(screen.getByRole('button', { name: 'Unlink' })).toBeInTheDocument();
    expect(window.localStorage.getItem('discord_id')).toBe('1234567890');
    expect(window.localStorage.getItem('discord_username')).toBe('gardenfan');
    expect(window.localStorage.getItem('discord_link_version')).toBe('v2');
  });

  it('wipes Discord data saved without the v2 marker', () => {
    window.localStorage.setItem('discord_id', '42');
    window.localStorage.setItem('discord_username', 'oldfan');
    window.localStorage.setItem('discord_avatar', 'https://cdn.example/old.png');
    useDiscordLinkStore.getState().hydrate();
    expect(useDiscordLinkStore.getState().identity).toBeNull();
    expect(window.localStorage.getItem('discord_id')).toBeNull();
    expect(window.localStorage.getItem('discord_username')).toBeNull();
    expect(window.localStorage.getItem('discord_avatar')).toBeNull();

    window.localStorage.setItem('discord_id', '42');
    window.localStorage.setItem('discord_username', 'oldfan');
    window.localStorage.setItem('discord_link_version', 'v1');
    useDiscordLinkStore.getState().hydrate();
    expect(useDiscordLinkStore.getState().identity).toBeNull();
    expect(window.localStorage.getItem('discord_link_version')).toBeNull();
  });

  it('shows a v2 saved account at once, then follows the server when it has none', async () => {
    window.localStorage.setItem('discord_id', '42');
    window.localStorage.setItem('discord_username', 'savedfan');
    window.localStorage.setItem('discord_link_version', 'v2');
    useDiscordLinkStore.getState().hydrate();
    fakeApi({ 'GET /discord/identity': unlinked });
    renderCheckout();
    expect(screen.getByTestId('discord-username')).toHaveTextContent('savedfan');
    // The server is the truth: its session has no account, so neither does the page.
    expect(await screen.findByRole('link', { name: 'Link Discord' })).toBeInTheDocument();
    expect(window.localStorage.getItem('discord_id')).toBeNull();
  });

  it('unlinks through the server and forgets the saved account', async () => {
    const calls = fakeApi({
      'GET /discord/identity': linked,
      'DELETE /discord/identity': () => jsonResponse({ message: 'Discord unlinked.' }),
    });
    const { user } = renderCheckout();
    await user.click(await screen.findByRole('button', { name: 'Unlink' }));
    expect(await screen.findByRole('link', { name: 'Link Discord' })).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'DELETE' && c.path === '/discord/identity')).toBe(true);
    expect(window.localStorage.getItem('discord_id')).toBeNull();
  });
});

describe('checkout page: promo code', () => {
  it('says a typed code needs Discord (not to enter one), and an empty box needs a code', async () => {
    const calls = fakeApi({ 'GET /discord/identity': unlinked });
    const { user } = renderCheckout();
    await screen.findByRole('link', { name: 'Link Discord' });
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Enter a promo code and link Discord.');
    await user.type(screen.getByLabelText('Promo code'), 'SPRING10');
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    expect(screen.getByRole('alert')).toHaveTextContent(
      'Link Discord to use this code: each promo code is used once per Discord account.',
    );
    expect(screen.queryByText(/Enter a promo code/)).not.toBeInTheDocument();
    expect(calls.filter((c) => c.path === '/validate-promo')).toHaveLength(0);
  });

  it('applies the typed code once Discord is linked, and asks for a code when the box is empty', async () => {
    const calls = fakeApi({
      'GET /discord/identity': linked,
      'POST /validate-promo': () => jsonResponse({ discount: 10 }),
    });
    const { user } = renderCheckout();
    await screen.findByTestId('discord-username');
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    expect(screen.getByRole('alert')).toHaveTextContent(/^Enter a promo code\.$/);
    await user.type(screen.getByLabelText('Promo code'), 'spring10');
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    expect(await screen.findByText('SPRING10 applied: 10% off.')).toBeInTheDocument();
    expect(calls.filter((c) => c.path === '/validate-promo')).toHaveLength(1);
  });

  it('keeps the typed promo code for this tab, so the trip to Discord does not lose it', async () => {
    fakeApi({ 'GET /discord/identity': unlinked });
    const first = renderCheckout();
    await first.user.type(screen.getByLabelText('Promo code'), 'SPRING10');
    first.unmount();
    expect(JSON.parse(window.sessionStorage.getItem(CHECKOUT_DETAILS_KEY) ?? '{}')).toMatchObject({
      promoCode: 'SPRING10',
    });
    // back from Discord's sign-in, linked now: the code is there and Apply checks it
    const calls = fakeApi({
      'GET /discord/identity': linked,
      'POST /validate-promo': () => jsonResponse({ discount: 10 }),
    });
    const { user } = renderCheckout();
    await screen.findByTestId('discord-username');
    expect(screen.getByLabelText('Promo code')).toHaveValue('SPRING10');
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    expect(await screen.findByText('SPRING10 applied: 10% off.')).toBeInTheDocument();
    expect(calls.find((c) => c.path === '/validate-promo')?.body).toMatchObject({
      promo_code: 'SPRING10',
    });
  });

  it('applies the discount (code trimmed) and resets it to 0 when a later code fails', async () => {
    const calls = fakeApi({
      'GET /discord/identity': linked,
      'POST /validate-promo': (body) =>
        (body as { promo_code: string }).promo_code === 'SPRING10'
          ? jsonResponse({ discount: 10 })
          : jsonResponse(
              {
                message: 'This promo code has expired.',
                reason: 'This promo code has expired.',
                errors: { promo_code: ['This promo code has expired.'] },
              },
              422,
            ),
    });
    const { user } = renderCheckout();
    await screen.findByTestId('discord-username');
    const code = screen.getByLabelText('Promo code');
    await user.type(code, '  SPRING10 ');
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    expect(await screen.findByText('SPRING10 applied: 10% off.')).toBeInTheDocument();
    expect(calls.find((c) => c.path === '/validate-promo')?.body).toEqual({
      promo_code: 'SPRING10',
      discord_id: '1234567890',
    });
    // 10.00 - 10 % = 9.00; (9.00 + 0.30) / 0.956 = 9.728 -> 9.73
    expect(screen.getByText('Discount (10%)')).toBeInTheDocument();
    expect(screen.getByTestId('checkout-discount')).toHaveTextContent('−$1.00');
    expect(screen.getByTestId('checkout-total')).toHaveTextContent('$9.73');

    await user.clear(code);
    await user.type(code, 'OLDCODE');
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    expect(await screen.findByText('This promo code has expired.')).toBeInTheDocument();
    expect(screen.getByTestId('checkout-discount')).toHaveTextContent('$0.00');
    expect(screen.getByTestId('checkout-total')).toHaveTextContent('$10.77');
  });

  it('says "Invalid promo code" when the server gives no reason', async () => {
    fakeApi({
      'GET /discord/identity': linked,
      'POST /validate-promo': () => new Response('Bad gateway', { status: 502 }),
    });
    const { user } = renderCheckout();
    await screen.findByTestId('discord-username');
    await user.type(screen.getByLabelText('Promo code'), 'WHATEVER');
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    expect(await screen.findByText('Invalid promo code')).toBeInTheDocument();
  });
});

describe('checkout page: Roblox username', () => {
  it('looks the name up on blur, shows the canonical name and the avatar', async () => {
    const calls = fakeApi({
      'GET /discord/identity': unlinked,
      'POST /roblox/avatar': () =>
        jsonResponse({ username: 'Builderman', avatar_url: 'https://img.example/b.png' }),
    });
    const { user } = renderCheckout();
    const input = screen.getByLabelText('Roblox username');
    await user.type(input, 'builderman');
    await user.tab();
    expect(await screen.findByRole('img', { name: 'Roblox avatar of Builderman' })).toHaveAttribute(
      'src',
      'https://img.example/b.png',
    );
    expect(input).toHaveValue('Builderman');
    // Unchanged: no second lookup. Empty: none either.
    await user.click(input);
    await user.tab();
    await user.clear(input);
    await user.tab();
    expect(calls.filter((c) => c.path === '/roblox/avatar')).toHaveLength(1);
    expect(calls.find((c) => c.path === '/roblox/avatar')?.body).toEqual({
      username: 'builderman',
    });
  });

  it("clears the preview and shows the server's reason under the field when it refuses the name", async () => {
    let found = true;
    fakeApi({
      'GET /discord/identity': unlinked,
      'POST /roblox/avatar': () =>
        found
          ? jsonResponse({ username: 'Builderman', avatar_url: 'https://img.example/b.png' })
          : jsonResponse({ message: 'Roblox user not found.' }, 404),
    });
    const { user } = renderCheckout();
    const input = screen.getByLabelText('Roblox username');
    await user.type(input, 'Builderman');
    await user.tab();
    await screen.findByRole('img', { name: 'Roblox avatar of Builderman' });
    expect(input).not.toHaveAttribute('aria-invalid');
    found = false;
    await user.type(input, '2');
    await user.tab();
    await waitFor(() => expect(screen.queryByRole('img', { name: /Roblox avatar/ })).toBeNull());
    expect(input).toHaveValue('Builderman2');
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(input).toHaveAccessibleDescription(expect.stringContaining('Roblox user not found.'));
    // a different name is not the one refused
    await user.type(input, '3');
    expect(input).not.toHaveAttribute('aria-invalid');
    expect(screen.queryByText('Roblox user not found.')).not.toBeInTheDocument();
  });

  it("shows a malformed name's field message from the 422", async () => {
    fakeApi({
      'GET /discord/identity': unlinked,
      'POST /roblox/avatar': () =>
        jsonResponse(
          {
            message: 'The given data was invalid.',
            errors: { username: ['A Roblox username has 3 to 20 letters, digits or _.'] },
          },
          422,
        ),
    });
    const { user } = renderCheckout();
    const input = screen.getByLabelText('Roblox username');
    await user.type(input, 'a b');
    await user.tab();
    await waitFor(() => expect(input).toHaveAttribute('aria-invalid', 'true'));
    expect(input).toHaveAccessibleDescription(
      expect.stringContaining('A Roblox username has 3 to 20 letters, digits or _.'),
    );
  });

  it('says nothing against the name when Roblox cannot be asked (502)', async () => {
    fakeApi({
      'GET /discord/identity': unlinked,
      'POST /roblox/avatar': () => jsonResponse({ message: 'Roblox is not answering.' }, 502),
    });
    const { user } = renderCheckout();
    const input = screen.getByLabelText('Roblox username');
    await user.type(input, 'Builderman');
    await user.tab();
    await waitFor(() => expect(input).not.toHaveAttribute('aria-busy'));
    expect(input).not.toHaveAttribute('aria-invalid');
    expect(screen.queryByText('Roblox is not answering.')).not.toBeInTheDocument();
  });
});

describe('checkout page: Complete Payment', () => {
  it('links the refund policy beside the button, in a new tab', async () => {
    fakeApi({ 'GET /discord/identity': linked });
    renderCheckout();
    await screen.findByTestId('discord-username');
    const policy = screen.getByRole('link', { name: /^Refund Policy/ });
    expect(policy).toHaveAttribute('href', '/refund-policy');
    expect(policy).toHaveAttribute('target', '_blank');
    // right under Complete Payment, before the payment note
    const button = screen.getByRole('button', { name: 'Complete Payment' });
    expect(button.nextElementSibling).toBe(screen.getByTestId('checkout-refund-policy'));
  });

  it('asks for the Roblox username, the e-mail and a linked Discord account', async () => {
    fakeApi({ 'GET /discord/identity': unlinked, 'POST /roblox/avatar': builderman });
    const { user } = renderCheckout();
    await screen.findByRole('link', { name: 'Link Discord' });
    await fillDetails(user);
    await user.click(screen.getByRole('button', { name: 'Complete Payment' }));
    // the summary names only what is missing, and focus goes to it
    expect(screen.getByRole('alert')).toHaveTextContent(/^Please link Discord\.$/);
    expect(screen.getByRole('link', { name: 'Link Discord' })).toHaveFocus();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    // only Discord is missing: only it is marked, with its own message (issue 23)
    expect(screen.getByLabelText('Roblox username')).not.toHaveAttribute('aria-invalid');
    expect(screen.getByLabelText('Email')).not.toHaveAttribute('aria-invalid');
    expect(screen.getByRole('link', { name: 'Link Discord' })).toHaveAccessibleDescription(
      'Link your Discord account: staff deliver through our server.',
    );
    expect(screen.queryByText('Enter the Roblox username we deliver to.')).not.toBeInTheDocument();
    expect(screen.queryByText('Enter your email for the receipt.')).not.toBeInTheDocument();
  });

  it('marks each missing field with its own message, and unmarks a field once typed in', async () => {
    fakeApi({ 'GET /discord/identity': linked });
    const { user } = renderCheckout();
    await screen.findByTestId('discord-username');
    await user.click(screen.getByRole('button', { name: 'Complete Payment' }));
    expect(screen.getByRole('alert')).toHaveTextContent(
      /^Please enter your Roblox username and email\.$/,
    );
    const roblox = screen.getByLabelText('Roblox username');
    const email = screen.getByLabelText('Email');
    expect(roblox).toHaveFocus();
    expect(roblox).toHaveAttribute('aria-invalid', 'true');
    expect(roblox).toHaveAccessibleDescription(
      expect.stringContaining('Enter the Roblox username we deliver to.'),
    );
    expect(email).toHaveAttribute('aria-invalid', 'true');
    expect(email).toHaveAccessibleDescription(
      expect.stringContaining('Enter your email for the receipt.'),
    );
    expect(
      screen.queryByText('Link your Discord account: staff deliver through our server.'),
    ).not.toBeInTheDocument();
    await user.type(email, 'ann@example.com');
    expect(email).not.toHaveAttribute('aria-invalid');
    expect(roblox).toHaveAttribute('aria-invalid', 'true');
    // the summary follows: only the name is left, then nothing
    expect(screen.getByRole('alert')).toHaveTextContent(/^Please enter your Roblox username\.$/);
    await user.type(roblox, 'Builderman');
    expect(screen.queryByText(/^Please /)).not.toBeInTheDocument();
  });

  it('names every missing detail in the summary and focuses the first, the Discord link', async () => {
    fakeApi({ 'GET /discord/identity': unlinked });
    const { user } = renderCheckout();
    await screen.findByRole('link', { name: 'Link Discord' });
    await user.type(screen.getByLabelText('Email'), 'ann@example.com');
    await user.click(screen.getByRole('button', { name: 'Complete Payment' }));
    expect(screen.getByRole('alert')).toHaveTextContent(
      /^Please enter your Roblox username and link Discord\.$/,
    );
    expect(screen.getByRole('link', { name: 'Link Discord' })).toHaveFocus();
    await user.clear(screen.getByLabelText('Email'));
    expect(screen.getByRole('alert')).toHaveTextContent(
      'Please enter your Roblox username and email, and link Discord.',
    );
  });

  it("puts the server's 422 field messages under their fields", async () => {
    fakeApi({
      'GET /discord/identity': linked,
      'POST /roblox/avatar': builderman,
      'POST /stripe/checkout': () =>
        jsonResponse(
          {
            message: 'The given data was invalid.',
            errors: { email: ['Enter a valid e-mail address.'] },
          },
          422,
        ),
    });
    const { user } = renderCheckout();
    await screen.findByTestId('discord-username');
    await fillDetails(user);
    await user.click(screen.getByRole('button', { name: 'Complete Payment' }));
    await user.click(screen.getByRole('button', { name: /Card/ }));
    const email = screen.getByLabelText('Email');
    await waitFor(() => expect(email).toHaveAttribute('aria-invalid', 'true'));
    expect(email).toHaveAccessibleDescription(
      expect.stringContaining('Enter a valid e-mail address.'),
    );
    expect(screen.getByLabelText('Roblox username')).not.toHaveAttribute('aria-invalid');
  });

  it('checks stock against the live products before opening the payment choice', async () => {
    fakeApi({ 'GET /discord/identity': linked });
    const liveRaccoon = { ...raccoon, stock: 2 };
    const liveBee = { ...bee, stock: 0 };
    const { user } = renderCheckout({
      products: [liveBee, liveRaccoon],
      cart: [
        [bee, 1],
        [raccoon, 3],
      ],
    });
    await screen.findByTestId('discord-username');
    await fillDetails(user);
    await user.click(screen.getByRole('button', { name: 'Complete Payment' }));
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('Please fix the following issues before continuing:');
    expect(
      within(alert)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['- Bee is out of stock.', '- Raccoon has only 2 in stock, but you selected 3.']);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('pays by card: the order payload, Processing..., then off to the returned url', async () => {
    const ann = makeUser({ id: 7 });
    let answer: (response: Response) => void = () => undefined;
    const calls = fakeApi({
      'GET /discord/identity': linked,
      'POST /validate-promo': () => jsonResponse({ discount: 10 }),
      'POST /stripe/checkout': () => new Promise<Response>((resolve) => (answer = resolve)),
    });
    const { user } = renderCheckout({ user: ann });
    await screen.findByTestId('discord-username');
    await user.type(screen.getByLabelText('Promo code'), 'spring10');
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    await screen.findByText('SPRING10 applied: 10% off.');
    await fillDetails(user);
    await user.click(screen.getByRole('button', { name: 'Complete Payment' }));

    const modal = screen.getByRole('dialog', { name: 'Choose a payment method' });
    // Card only: PayPal is not enabled on this shop.
    expect(within(modal).getAllByRole('button', { name: /card|paypal/i })).toHaveLength(1);
    const card = within(modal).getByRole('button', { name: /Card/ });
    expect(card).toHaveTextContent('$9.73');
    await user.click(card);
    const processing = within(modal).getByRole('button', { name: /Processing\.\.\./ });
    expect(processing).toBeDisabled();

    const order = calls.find((c) => c.path === '/stripe/checkout')?.body;
    expect(order).toEqual({
      discord_id: '1234567890',
      email: 'ann@example.com',
      roblox_username: 'Builderman',
      items: [
        {
          id: 1,
          name: 'Bee',
          description: bee.description,
          price: 4.99,
          qty: 2,
          stock: null,
          weight: null,
          mutation: null,
        },
        {
          id: 3,
          name: 'Raccoon',
          description: raccoon.description,
          price: 0.02,
          qty: 1,
          stock: 5,
          weight: null,
          mutation: null,
        },
      ],
      total: 9,
      currency: 'USD',
      user_id: 7,
      promo_code: 'spring10',
    });
    answer(jsonResponse({ url: 'http://shop.test/dev/pay/42', order_id: 42 }));
    await waitFor(() => expect(redirectTo).toHaveBeenCalledWith('http://shop.test/dev/pay/42'));
  });

  it('sends no promo code without a discount, and offers PayPal when the shop enables it', async () => {
    const calls = fakeApi({
      'GET /discord/identity': linked,
      'POST /checkout/paypal': () =>
        jsonResponse({ approval_url: 'https://paypal.example/approve', order_id: 5 }),
    });
    const { user } = renderCheckout({ paypal: true });
    await screen.findByTestId('discord-username');
    await user.type(screen.getByLabelText('Promo code'), 'NOTAPPLIED');
    await fillDetails(user);
    await user.click(screen.getByRole('button', { name: 'Complete Payment' }));
    const modal = screen.getByRole('dialog', { name: 'Choose a payment method' });
    // (10.00 + 0.49) / 0.9501 = 11.0409 -> 11.04
    const paypal = within(modal).getByRole('button', { name: /PayPal/ });
    expect(paypal).toHaveTextContent('$11.04');
    await user.click(paypal);
    await waitFor(() => expect(redirectTo).toHaveBeenCalledWith('https://paypal.example/approve'));
    const order = calls.find((c) => c.path === '/checkout/paypal')?.body as Record<string, unknown>;
    expect(order.total).toBe(10);
    expect(order.user_id).toBeNull();
    expect(order).not.toHaveProperty('promo_code');
  });

  async function startCardPayment(handler: () => Response) {
    fakeApi({ 'GET /discord/identity': linked, 'POST /stripe/checkout': handler });
    const rendered = renderCheckout();
    await screen.findByTestId('discord-username');
    await fillDetails(rendered.user);
    await rendered.user.click(screen.getByRole('button', { name: 'Complete Payment' }));
    await rendered.user.click(screen.getByRole('button', { name: /Card/ }));
    return rendered;
  }

  it.each([
    ['an answer without a message', () => new Response('oops', { status: 500 }), 'Payment failed.'],
    [
      "the server's message",
      () =>
        jsonResponse(
          { message: 'Please enter your Roblox username and email, and link Discord.' },
          422,
        ),
      'Please enter your Roblox username and email, and link Discord.',
    ],
    [
      "a drop's 409 before its release",
      () => jsonResponse({ message: 'This item drops at 2026-11-27 03:00 UTC' }, 409),
      'This item drops at 2026-11-27 03:00 UTC',
    ],
    [
      "a drop's 409 over the cap per account",
      () =>
        jsonResponse(
          {
            message:
              'Night Owl is limited to 1 per account, and your Discord account already holds 1.',
          },
          409,
        ),
      'Night Owl is limited to 1 per account, and your Discord account already holds 1.',
    ],
    [
      'no redirect url',
      () => jsonResponse({ order_id: 3 }),
      'Payment session created, but no redirect URL was returned.',
    ],
  ])('shows %s', async (_, handler, message) => {
    await startCardPayment(handler);
    // a 5xx is sent again a few times first (the Idempotency-Key's retries, without their
    // waits here: see beforeEach)
    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Complete Payment' })).toBeEnabled();
    expect(redirectTo).not.toHaveBeenCalled();
  });

  it("shows the server's stock problems on a 409", async () => {
    await startCardPayment(() =>
      jsonResponse(
        {
          message: 'Please fix the following issues before continuing:',
          problems: ['- Raccoon has only 0 in stock, but you selected 1.'],
        },
        409,
      ),
    );
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Please fix the following issues before continuing:');
    expect(alert).toHaveTextContent('- Raccoon has only 0 in stock, but you selected 1.');
  });

  it('shows the fresh prices on a 409 and pays them once confirmed', async () => {
    let attempt = 0;
    const { user } = await startCardPayment(() => {
      attempt += 1;
      return attempt === 1
        ? jsonResponse(
            {
              message: 'Prices have changed. Please review your order.',
              cart: {
                lines: [
                  {
                    id: 1,
                    name: 'Bee',
                    unit_price: 5.49,
                    qty: 2,
                    line_total: 10.98,
                    unit_price_paid: 5.49,
                  },
                  {
                    id: 3,
                    name: 'Raccoon',
                    unit_price: 0.02,
                    qty: 1,
                    line_total: 0.02,
                    unit_price_paid: 0.02,
                  },
                ],
                subtotal: 11,
                discount_percent: null,
                discount: 0,
                total: 11,
                fee: 0.82,
                grand_total: 11.82,
                currency: 'USD',
                paid: {
                  rate: '1',
                  subtotal: 11,
                  discount: 0,
                  total: 11,
                  fee: 0.82,
                  grand_total: 11.82,
                },
              },
            },
            409,
          )
        : jsonResponse({ url: 'http://shop.test/dev/pay/9', order_id: 9 });
    });
    const review = await screen.findByRole('alertdialog', { name: 'Please review your order' });
    expect(review).toHaveTextContent('Prices have changed. Please review your order.');
    expect(review).toHaveTextContent('$10.98');
    expect(within(review).getByTestId('fresh-total')).toHaveTextContent('$11.82');
    await user.click(within(review).getByRole('button', { name: 'Confirm and pay $11.82' }));
    await waitFor(() => expect(redirectTo).toHaveBeenCalledWith('http://shop.test/dev/pay/9'));
    const fetchMock = vi.mocked(fetch);
    const bodies = fetchMock.mock.calls
      .filter(([url]) => String(url).endsWith('/stripe/checkout'))
      .map(([, init]) => JSON.parse(String(init?.body)) as { total: number });
    expect(bodies.map((b) => b.total)).toEqual([10, 11]);
  });

  it('prices the checkout in the shopper’s currency and reviews a changed rate in it', async () => {
    offerCurrencies([
      { code: 'USD', rate: '1', minor_units: 2, rounding: 'minor' },
      { code: 'BRL', rate: '5.34144', minor_units: 2, rounding: 'minor' },
    ]);
    chooseCurrency('BRL');
    let attempt = 0;
    const { user } = await startCardPayment(() => {
      attempt += 1;
      return attempt === 1
        ? jsonResponse(
            {
              message: 'Prices have changed. Please review your order.',
              cart: {
                lines: [
                  {
                    id: 1,
                    name: 'Bee',
                    unit_price: 4.99,
                    qty: 2,
                    line_total: 9.98,
                    unit_price_paid: 26.9,
                  },
                ],
                subtotal: 9.98,
                discount_percent: null,
                discount: 0,
                total: 9.98,
                fee: 0.76,
                grand_total: 10.74,
                currency: 'BRL',
                paid: {
                  rate: '5.39',
                  subtotal: 53.8,
                  discount: 0,
                  total: 53.8,
                  fee: 4.17,
                  grand_total: 57.97,
                },
              },
            },
            409,
          )
        : jsonResponse({ url: 'http://shop.test/dev/pay/9', order_id: 9 });
    });
    const review = await screen.findByRole('alertdialog', { name: 'Please review your order' });
    expect(review).toHaveTextContent('R$53.80');
    expect(within(review).getByTestId('fresh-total')).toHaveTextContent('R$57.97');
    await user.click(within(review).getByRole('button', { name: 'Confirm and pay R$57.97' }));
    await waitFor(() => expect(redirectTo).toHaveBeenCalledWith('http://shop.test/dev/pay/9'));
    const bodies = vi
      .mocked(fetch)
      .mock.calls.filter(([url]) => String(url).endsWith('/stripe/checkout'))
      .map(([, init]) => JSON.parse(String(init?.body)) as { total: number; currency: string });
    // first the page's total at its rate: 2 × R$ 26,65 + R$ 0,11; then the server's
    expect(bodies.map(({ total, currency }) => [total, currency])).toEqual([
      [53.41, 'BRL'],
      [53.8, 'BRL'],
    ]);
  });

  it('keeps what was typed for this tab, so a trip to Discord does not empty the form', async () => {
    fakeApi({ 'GET /discord/identity': unlinked });
    const first = renderCheckout();
    await fillDetails(first.user);
    first.unmount();
    expect(JSON.parse(window.sessionStorage.getItem(CHECKOUT_DETAILS_KEY) ?? '{}')).toMatchObject({
      robloxUsername: 'Builderman',
      email: 'ann@example.com',
    });
    renderCheckout();
    expect(screen.getByLabelText('Roblox username')).toHaveValue('Builderman');
    expect(screen.getByLabelText('Email')).toHaveValue('ann@example.com');
    expect(screen.getByLabelText('Email')).toHaveAttribute('type', 'email');
  });
});
