import { act, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { HomeRoute } from '@/app/routes/home';
import { useCartStore } from '@/features/cart/stores/cart-store';
import { makeProduct } from '@/testing/factories';
import {
  createTestQueryClient,
  jsonResponse,
  queryClientWithProducts,
  renderWithProviders,
} from '@/testing/test-utils';

const raccoon = makeProduct({
  id: 3,
  name: 'Raccoon',
  category: 'Pets, Exclusives',
  dupe_warning: true,
});
const bee = makeProduct({ id: 4, name: 'Bee', category: 'Pets' });
const sheckles = makeProduct({ id: 5, name: '10M Sheckles', category: 'Sheckles' });
const bundle = makeProduct({ id: 6, name: 'Starter Bundle', category: 'Bundles' });
const products = [raccoon, bee, sheckles, bundle];

function renderHome(url = '/') {
  return renderWithProviders(<HomeRoute />, {
    url,
    queryClient: queryClientWithProducts(products),
  });
}

const productNames = () =>
  within(screen.getByRole('list', { name: 'Products' }))
    .getAllByRole('heading', { level: 3 })
    .map((heading) => heading.textContent);

describe('home page', () => {
  it('shows the banner, the categories, the search box and every product', () => {
    renderHome();
    expect(
      screen.getByRole('heading', {
        level: 1,
        name: 'Upgrade your Grow A Garden experience with affordable products!',
      }),
    ).toBeInTheDocument();
    for (const name of ['All', 'Pets', 'Sheckles', 'Bundles', 'Exclusives']) {
      expect(screen.getByRole('button', { name: new RegExp(`^${name}`) })).toBeInTheDocument();
    }
    expect(screen.getByRole('button', { name: /^All/ })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByRole('searchbox', { name: 'Search products' })).toHaveAttribute(
      'placeholder',
      'Search products...',
    );
    expect(productNames()).toEqual(['Raccoon', 'Bee', '10M Sheckles', 'Starter Bundle']);
  });

  it('words each perk as one run of text, so no gap doubles a space (issue 34)', () => {
    renderHome();
    const perk = screen.getByText(/^Usually delivered in/);
    expect(perk.textContent).toBe('Usually delivered in a few minutes');
    // the perk is a flex row: a word sitting loose beside another item gets the gap as well
    // as its space ("Usually delivered in  under 10 minutes")
    const perks = perk.closest('ul');
    for (const item of Array.from(perks?.querySelectorAll('li') ?? [])) {
      const loose = Array.from(item.childNodes).filter(
        (node) => node.nodeType === Node.TEXT_NODE && node.textContent?.trim(),
      );
      expect(loose).toEqual([]);
      expect(item.textContent).not.toMatch(/\s{2}/);
    }
  });

  it('filters by category, matching any of a product’s categories', async () => {
    const { user } = renderHome();
    await user.click(screen.getByRole('button', { name: /^Sheckles/ }));
    expect(screen.getByRole('button', { name: /^Sheckles/ })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    expect(productNames()).toEqual(['10M Sheckles']);
    await user.click(screen.getByRole('button', { name: /^Exclusives/ }));
    expect(productNames()).toEqual(['Raccoon']);
  });

  it('searches names and categories, case-insensitively', async () => {
    const { user } = renderHome();
    await user.type(screen.getByRole('searchbox'), 'RACC');
    expect(productNames()).toEqual(['Raccoon']);
    await user.clear(screen.getByRole('searchbox'));
    await user.type(screen.getByRole('searchbox'), 'bundles');
    expect(productNames()).toEqual(['Starter Bundle']);
  });

  it('reads the filters from the address', () => {
    renderHome('/?category=Pets&q=bee');
    expect(screen.getByRole('searchbox')).toHaveValue('bee');
    expect(productNames()).toEqual(['Bee']);
  });

  it('says when nothing matches and clears the filters', async () => {
    const { user } = renderHome();
    await user.click(screen.getByRole('button', { name: /^Bundles/ }));
    await user.type(screen.getByRole('searchbox'), 'unicorn');
    expect(screen.getByText('No products match “unicorn” in Bundles')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Clear filters' }));
    expect(screen.getByRole('searchbox')).toHaveValue('');
    expect(productNames()).toHaveLength(4);
  });

  it('shows skeleton cards while loading', () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() => new Promise<Response>(() => undefined)),
    );
    renderWithProviders(<HomeRoute />, { queryClient: createTestQueryClient() });
    expect(screen.getByRole('status', { name: 'Loading products' })).toBeInTheDocument();
  });

  it('shows an error with Retry when the API is down, and recovers', async () => {
    const productAnswers = [
      jsonResponse({ message: 'Service unavailable.', errors: {} }, 503),
      jsonResponse([bee]),
    ];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) =>
        url.endsWith('/products')
          ? productAnswers.shift()
          : jsonResponse({ message: 'Not found.', errors: {} }, 404),
      ),
    );
    const { user } = renderWithProviders(<HomeRoute />, { queryClient: createTestQueryClient() });
    expect(await screen.findByText("We couldn't load the products")).toBeInTheDocument();
    expect(screen.getByText('Service unavailable.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('link', { name: 'Bee' })).toBeInTheDocument();
  });

  it('adds a product straight to the cart', async () => {
    const { user } = renderHome();
    await user.click(screen.getByRole('button', { name: 'Add to Cart: Bee' }));
    expect(useCartStore.getState().items.map((item) => item.id)).toEqual([4]);
    expect(await screen.findByText('Added Bee to cart')).toBeInTheDocument();
  });

  it('adds a product already in the cart again without asking', async () => {
    const { user } = renderHome();
    await user.click(screen.getByRole('button', { name: 'Add to Cart: Bee' }));
    await user.click(screen.getByRole('button', { name: 'Add to Cart: Bee' }));
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(useCartStore.getState().items[0]?.qty).toBe(2);
  });

  it('shows the dupe warning for a flagged product: Cancel adds nothing, Proceed adds', async () => {
    const { user } = renderHome();
    await user.click(screen.getByRole('button', { name: 'Add to Cart: Raccoon' }));
    let dialog = screen.getByRole('alertdialog');
    expect(dialog).toHaveTextContent('the Raccoon may be falsely flagged as dupe');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(useCartStore.getState().items).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Add to Cart: Raccoon' }));
    dialog = screen.getByRole('alertdialog');
    await user.click(within(dialog).getByRole('button', { name: 'Proceed' }));
    expect(useCartStore.getState().items.map((item) => item.id)).toEqual([3]);
  });
});

describe('upcoming drops on the home page', () => {
  const NOW = Date.parse('2026-11-27T02:55:01Z');
  const owl = makeProduct({
    id: 21,
    name: 'Night Owl',
    stock: 10,
    released: false,
    release_at: '2026-11-27T03:00:00Z',
    max_per_account: 1,
  });
  const moth = makeProduct({
    id: 22,
    name: 'Moon Moth',
    released: false,
    release_at: '2026-11-27T02:57:00Z',
  });

  afterEach(() => {
    vi.useRealTimers();
  });

  it('lists them above the grid, the soonest first, each counting down to its page', () => {
    vi.useFakeTimers({ now: NOW });
    renderWithProviders(<HomeRoute />, {
      queryClient: queryClientWithProducts([...products, owl, moth]),
    });
    const strip = screen.getByRole('region', { name: 'Upcoming drops' });
    const links = within(strip).getAllByRole('link');
    expect(links.map((link) => [link.textContent, link.getAttribute('href')])).toEqual([
      ['Moon Moth', '/product/22'],
      ['Night Owl', '/product/21'],
    ]);
    expect(within(strip).getByText('Drops in 1:59')).toBeInTheDocument();
    expect(within(strip).getByText('Drops in 4:59')).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(1000));
    expect(within(strip).getByText('Drops in 4:58')).toBeInTheDocument();
    // the strip comes before the grid in the page
    const grid = screen.getByRole('list', { name: 'Products' });
    expect(strip.compareDocumentPosition(grid) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('is absent when no drop is coming, released drops included', () => {
    renderWithProviders(<HomeRoute />, {
      queryClient: queryClientWithProducts([
        ...products,
        { ...owl, released: true, release_at: '2026-11-20T03:00:00Z' },
      ]),
    });
    expect(screen.queryByRole('region', { name: 'Upcoming drops' })).not.toBeInTheDocument();
    expect(screen.queryByText(/^Drops in/)).not.toBeInTheDocument();
  });
});
