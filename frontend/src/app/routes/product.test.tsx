import { act, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { ProductRoute } from '@/app/routes/product';
import { CART_STORAGE_KEY, useCartStore } from '@/features/cart/stores/cart-store';
import { DISCORD_RETURN_KEY } from '@/features/checkout/utils/discord-return';
import { releaseTimeLabel } from '@/lib/drop';
import { queryKeys } from '@/lib/query-keys';
import { stubApi } from '@/testing/api-stub';
import { makeProduct } from '@/testing/factories';
import {
  createTestQueryClient,
  jsonResponse,
  queryClientWithProducts,
  renderWithProviders,
} from '@/testing/test-utils';
import type { Product } from '@/types/api';

const raccoon = makeProduct({
  id: 3,
  name: 'Raccoon',
  price: 24.99,
  savings: 39.99,
  stock: 5,
  weight: 2.5,
  mutation: 'Rainbow',
  description: 'A sneaky raccoon that steals crops from other gardens.',
  dupe_warning: true,
});
const bee = makeProduct({ id: 7, name: 'Bee', price: 4.5, stock: null });
const dragonfly = makeProduct({ id: 9, name: 'Dragonfly', stock: 0 });

function renderProductPage(id: number, products: Product[] = [raccoon, bee, dragonfly]) {
  return renderWithProviders(<ProductRoute />, {
    url: `/product/${id}`,
    path: '/product/:id',
    queryClient: queryClientWithProducts(products),
  });
}

const qtyInCart = (id: number) => useCartStore.getState().items.find((i) => i.id === id)?.qty;

describe('product page', () => {
  it('shows the product with its price, description and badges', async () => {
    renderProductPage(3);
    expect(await screen.findByRole('heading', { level: 1, name: 'Raccoon' })).toBeInTheDocument();
    expect(screen.getByText('$24.99')).toBeInTheDocument();
    expect(screen.getByText(/sneaky raccoon/)).toBeInTheDocument();
    expect(screen.getByText('Save $15')).toBeInTheDocument();
    expect(screen.getByText('5 Stock Left')).toBeInTheDocument();
    expect(screen.getByText('2.5 kg')).toBeInTheDocument();
    expect(screen.getByText('Rainbow')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /back to shop/i })).toHaveAttribute('href', '/');
  });

  it('says "Product not found." for an unknown id, with the way back home', async () => {
    renderProductPage(404);
    expect(await screen.findByText('Product not found.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /back to shop/i })).toHaveAttribute('href', '/');
  });

  it('shows a skeleton while the products load', () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() => new Promise<Response>(() => undefined)),
    );
    renderWithProviders(<ProductRoute />, {
      url: '/product/3',
      path: '/product/:id',
      queryClient: createTestQueryClient(),
    });
    expect(screen.getByRole('status', { name: 'Loading product' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /back to shop/i })).toBeInTheDocument();
  });

  it('loads the product list from the API with no-cache', async () => {
    const fetchMock = vi.fn(async () => jsonResponse([bee]));
    vi.stubGlobal('fetch', fetchMock);
    renderWithProviders(<ProductRoute />, {
      url: '/product/7',
      path: '/product/:id',
      queryClient: createTestQueryClient(),
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Bee' })).toBeInTheDocument();
    expect(fetchMock).toHaveBeenCalledWith(
      '/api/products',
      expect.objectContaining({ cache: 'no-cache', credentials: 'include' }),
    );
  });

  it('adds a product without a warning directly', async () => {
    const { user } = renderProductPage(7);
    await user.click(await screen.findByRole('button', { name: 'Add to Cart' }));
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(qtyInCart(7)).toBe(1);
    expect(await screen.findByText('Added Bee to cart')).toBeInTheDocument();
  });

  it('asks first for a dupe-flagged product; Cancel adds nothing', async () => {
    const { user } = renderProductPage(3);
    await user.click(await screen.findByRole('button', { name: 'Add to Cart' }));
    const dialog = screen.getByRole('alertdialog');
    expect(dialog).toHaveTextContent(
      "By purchasing you acknowledge that the Raccoon may be falsely flagged as dupe after it's delivered.",
    );
    expect(dialog).not.toHaveTextContent('You already have');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(useCartStore.getState().items).toEqual([]);
    expect(window.localStorage.getItem(CART_STORAGE_KEY)).toBeNull();
  });

  it('adds the dupe-flagged product on Proceed', async () => {
    const { user } = renderProductPage(3);
    await user.click(await screen.findByRole('button', { name: 'Add to Cart' }));
    await user.click(
      within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Proceed' }),
    );
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(qtyInCart(3)).toBe(1);
    expect(useCartStore.getState().isOpen).toBe(true);
  });

  it('closes the warning with Escape without adding', async () => {
    const { user } = renderProductPage(3);
    await user.click(await screen.findByRole('button', { name: 'Add to Cart' }));
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(useCartStore.getState().items).toEqual([]);
  });

  it('asks for confirmation when the product is already in the cart', async () => {
    useCartStore.getState().addItem(bee);
    useCartStore.getState().addItem(bee);
    useCartStore.getState().close();
    const { user } = renderProductPage(7);
    expect(await screen.findByText('You have 2 in your cart.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Add to Cart' }));
    const dialog = screen.getByRole('alertdialog');
    expect(dialog).toHaveTextContent('You already have 2 in your cart.');
    expect(dialog).not.toHaveTextContent('falsely flagged');
    await user.click(within(dialog).getByRole('button', { name: 'Proceed' }));
    expect(qtyInCart(7)).toBe(3);
  });

  it('gives both sentences for a dupe-flagged product already in the cart', async () => {
    useCartStore.getState().addItem(raccoon);
    const { user } = renderProductPage(3);
    await user.click(await screen.findByRole('button', { name: 'Add to Cart' }));
    const dialog = screen.getByRole('alertdialog');
    expect(dialog).toHaveTextContent('may be falsely flagged as dupe');
    expect(dialog).toHaveTextContent('You already have 1 in your cart.');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(qtyInCart(3)).toBe(1);
  });

  it('disables Add to Cart and reads Out of Stock when the stock is 0', async () => {
    renderProductPage(9);
    const button = await screen.findByRole('button', { name: 'Out of Stock' });
    expect(button).toBeDisabled();
  });

  it('does not ask again once the stock limit is reached', async () => {
    const lastOne = makeProduct({ id: 11, name: 'Unicorn', stock: 1 });
    useCartStore.getState().addItem(lastOne);
    const { user } = renderProductPage(11, [lastOne]);
    await user.click(await screen.findByRole('button', { name: 'Add to Cart' }));
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(await screen.findByText(/already have all 1 Unicorn/)).toBeInTheDocument();
    expect(qtyInCart(11)).toBe(1);
  });

  it('Buy Now adds the product, then goes to /checkout with the drawer closed', async () => {
    const { user, router } = renderProductPage(7);
    await user.click(await screen.findByRole('button', { name: 'Buy Now' }));
    expect(qtyInCart(7)).toBe(1);
    expect(await screen.findByText('Another page')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/checkout');
    expect(useCartStore.getState().isOpen).toBe(false);
  });

  it('Buy Now goes through the dupe warning: Cancel stays, Proceed adds and goes on', async () => {
    const { user, router } = renderProductPage(3);
    await user.click(await screen.findByRole('button', { name: 'Buy Now' }));
    await user.click(
      within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Cancel' }),
    );
    expect(useCartStore.getState().items).toEqual([]);
    expect(router.state.location.pathname).toBe('/product/3');

    await user.click(screen.getByRole('button', { name: 'Buy Now' }));
    await user.click(
      within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Proceed' }),
    );
    expect(qtyInCart(3)).toBe(1);
    expect(router.state.location.pathname).toBe('/checkout');
  });

  it('offers no Buy Now for a product out of stock', async () => {
    renderProductPage(9);
    expect(await screen.findByRole('button', { name: 'Out of Stock' })).toBeDisabled();
    expect(screen.queryByRole('button', { name: 'Buy Now' })).not.toBeInTheDocument();
  });
});

describe('a bundle that holds a drop', () => {
  const dragon = makeProduct({ id: 31, name: 'Dragon', stock: 30, max_per_account: 1 });
  const egg = makeProduct({ id: 32, name: 'Egg' });
  const dragonBundle = makeProduct({ id: 33, name: 'Dragon Bundle', related_ids: [31, 32] });
  const catalogue = [dragon, egg, dragonBundle];

  it('shows the drop’s limit on the bundle, and the drop’s own on the drop', async () => {
    const { unmount } = renderProductPage(33, catalogue);
    expect(await screen.findByText('Holds Dragon: limit 1 per account')).toBeInTheDocument();
    expect(screen.queryByText('Limit 1 per account')).not.toBeInTheDocument();
    unmount();

    renderProductPage(31, catalogue);
    expect(await screen.findByText('Limit 1 per account')).toBeInTheDocument();
    expect(screen.queryByText(/^Holds /)).not.toBeInTheDocument();
  });

  it('refuses the bundle when the drop is already in the cart at its cap', async () => {
    useCartStore.getState().addItem(dragon);
    useCartStore.getState().close();
    const { user } = renderProductPage(33, catalogue);
    const reason =
      'You already have 1 of 1 Dragon (1 in your cart): that is the limit per account.';
    expect(await screen.findByText(reason)).toBeInTheDocument();
    const add = screen.getByRole('button', { name: 'Add to Cart' });
    expect(add).toBeDisabled();
    expect(add).toHaveAccessibleDescription(reason);
    await user.click(add);
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(qtyInCart(33)).toBeUndefined();
  });
});

describe('an upcoming drop on the product page', () => {
  const RELEASE_AT = '2026-11-27T03:00:00Z';
  const drop = makeProduct({
    id: 21,
    name: 'Night Owl',
    stock: 10,
    released: false,
    release_at: RELEASE_AT,
    max_per_account: 1,
  });

  /** What the server's product list holds. */
  let served: Product[] = [];

  /** The page on fake timers, 4:59 before the drop, with the Discord account `identity`. */
  async function renderDrop(identity: { discord_id: string; username: string } | null = null) {
    vi.useFakeTimers({ now: Date.parse(RELEASE_AT) - 299_000 });
    served = [drop];
    stubApi({
      'GET /products': () => jsonResponse(served),
      'GET /discord/identity': () =>
        jsonResponse({ identity: identity && { ...identity, avatar: null } }),
    });
    const page = renderWithProviders(<ProductRoute />, {
      url: '/product/21',
      path: '/product/:id',
      queryClient: queryClientWithProducts([drop]),
    });
    // the identity's answer
    await act(() => vi.advanceTimersByTimeAsync(0));
    return page;
  }

  afterEach(() => {
    vi.useRealTimers();
  });

  it('counts down to the drop in the shopper’s time, the main button disabled', async () => {
    await renderDrop();
    expect(screen.getByRole('heading', { level: 2, name: /^Drops / })).toHaveTextContent(
      releaseTimeLabel(RELEASE_AT),
    );
    const button = screen.getByRole('button', { name: 'Drops in 4:59' });
    expect(button).toBeDisabled();
    expect(screen.queryByRole('button', { name: /add to cart/i })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Buy Now' })).not.toBeInTheDocument();
    expect(screen.getByText('Limit 1 per account')).toBeInTheDocument();

    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(button).toHaveAccessibleName('Drops in 4:58');
    await act(() => vi.advanceTimersByTimeAsync(297_000));
    expect(button).toHaveAccessibleName('Drops in 0:01');
  });

  it('stays disabled at zero ("Dropping…") until the server’s data says released', async () => {
    const { queryClient } = await renderDrop();
    await act(() => vi.advanceTimersByTimeAsync(300_000));
    const button = screen.getByRole('button', { name: 'Dropping…' });
    expect(button).toBeDisabled();
    // the browser's clock alone never opens the sale
    await act(() => vi.advanceTimersByTimeAsync(60_000));
    expect(screen.getByRole('button', { name: 'Dropping…' })).toBeDisabled();

    // at the release the server's `products` event refetches the list: now released
    served = [{ ...drop, released: true }];
    await act(async () => {
      await queryClient.invalidateQueries({ queryKey: queryKeys.products });
      await vi.advanceTimersByTimeAsync(0);
    });
    const add = screen.getByRole('button', { name: 'Add to Cart' });
    expect(add).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Buy Now' })).toBeEnabled();
    expect(screen.queryByRole('heading', { name: /^Drops / })).not.toBeInTheDocument();
  });

  it('asks a shopper without a linked Discord account to link one beforehand', async () => {
    await renderDrop(null);
    expect(screen.getByText(/Link your Discord account before the drop/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Link Discord' })).toHaveAttribute(
      'href',
      '/api/discord/authorize',
    );
  });

  it('remembers this page before leaving for Discord, so the link returns here', async () => {
    window.sessionStorage.clear();
    await renderDrop(null);
    // jsdom cannot follow the link: stop the browser's navigation after the page's handlers
    const stay = (event: Event) => event.preventDefault();
    document.addEventListener('click', stay);
    try {
      act(() => screen.getByRole('link', { name: 'Link Discord' }).click());
    } finally {
      document.removeEventListener('click', stay);
    }
    expect(window.sessionStorage.getItem(DISCORD_RETURN_KEY)).toBe('/product/21');
  });

  it('does not ask when the shopper’s Discord account is linked', async () => {
    await renderDrop({ discord_id: '42', username: 'owlfan' });
    expect(screen.getByRole('button', { name: 'Drops in 4:59' })).toBeDisabled();
    expect(screen.queryByRole('link', { name: 'Link Discord' })).not.toBeInTheDocument();
  });
});

describe('what the buyer already holds of a drop', () => {
  const dragon = makeProduct({ id: 41, name: 'Dragon', stock: 30, max_per_account: 1 });
  const owl = makeProduct({ id: 42, name: 'Owl', stock: 30, max_per_account: 3 });
  const egg = makeProduct({ id: 43, name: 'Egg' });
  const dragonBundle = makeProduct({ id: 44, name: 'Dragon Bundle', related_ids: [41, 43] });
  const catalogue = [dragon, owl, egg, dragonBundle];

  function renderHeld(id: number, holdings: Array<{ product_id: number; held: number }>) {
    const api = stubApi({
      'GET /products': () => jsonResponse(catalogue),
      'GET /checkout/holdings': () =>
        jsonResponse(
          holdings.map((held) => ({
            ...held,
            max_per_account: catalogue.find((p) => p.id === held.product_id)?.max_per_account,
          })),
        ),
    });
    return { api, ...renderProductPage(id, catalogue) };
  }

  it('says "You already have 1 of 1" and refuses Add to Cart and Buy Now, with the reason', async () => {
    const { api } = renderHeld(41, [{ product_id: 41, held: 1 }]);
    const note = await screen.findByText('You already have 1 of 1: that is the limit per account.');
    const add = screen.getByRole('button', { name: 'Add to Cart' });
    const buy = screen.getByRole('button', { name: 'Buy Now' });
    for (const button of [add, buy]) {
      expect(button).toBeDisabled();
      expect(button).toHaveAccessibleDescription(note.textContent ?? '');
    }
    expect(api.callsTo('GET /checkout/holdings')).toHaveLength(1);
    expect(qtyInCart(41)).toBeUndefined();
  });

  it('counts the cart with the orders, and lets one more in while there is room', async () => {
    useCartStore.getState().addItem(owl);
    useCartStore.getState().close();
    const { user } = renderHeld(42, [{ product_id: 42, held: 1 }]);
    expect(
      await screen.findByText('You already have 2 of 3 (1 in your cart).'),
    ).toBeInTheDocument();
    const add = screen.getByRole('button', { name: 'Add to Cart' });
    expect(add).toBeEnabled();
    await user.click(add);
    // the product page asks before adding what is in the cart already
    const ask = await screen.findByRole('alertdialog', { name: 'Add another one?' });
    await user.click(within(ask).getByRole('button', { name: 'Proceed' }));
    expect(
      await screen.findByText(
        'You already have 3 of 3 (2 in your cart): that is the limit per account.',
      ),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Add to Cart' })).toBeDisabled();
  });

  it('refuses a bundle of a drop the buyer holds all of, naming the drop', async () => {
    renderHeld(44, [{ product_id: 41, held: 1 }]);
    expect(
      await screen.findByText('You already have 1 of 1 Dragon: that is the limit per account.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Add to Cart' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Buy Now' })).toBeDisabled();
  });

  it('says nothing of holdings and asks nothing for a product without a cap', async () => {
    const { api } = renderHeld(43, []);
    expect(await screen.findByRole('button', { name: 'Add to Cart' })).toBeEnabled();
    expect(screen.queryByText(/You already have/)).not.toBeInTheDocument();
    expect(api.callsTo('GET /checkout/holdings')).toHaveLength(0);
  });

  it('keeps the buttons for a drop the buyer holds none of', async () => {
    const { api } = renderHeld(41, []);
    await vi.waitFor(() => expect(api.callsTo('GET /checkout/holdings')).toHaveLength(1));
    expect(screen.getByRole('button', { name: 'Add to Cart' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Buy Now' })).toBeEnabled();
    expect(screen.queryByText(/You already have/)).not.toBeInTheDocument();
  });
});
