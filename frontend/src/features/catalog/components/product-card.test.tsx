import { act, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

import { ProductCard } from '@/features/catalog/components/product-card';
import { makeProduct } from '@/testing/factories';
import { renderWithProviders } from '@/testing/test-utils';
import type { Product } from '@/types/api';

function renderCard(product: Product, onAddToCart = vi.fn()) {
  const view = renderWithProviders(<ProductCard product={product} onAddToCart={onAddToCart} />);
  return { ...view, onAddToCart };
}

describe('ProductCard', () => {
  it('shows the image, name, price and links to the product page', () => {
    renderCard(makeProduct({ id: 3, name: 'Raccoon', price: 24.99, image: '/media/r.png' }));
    expect(screen.getByRole('img', { name: 'Raccoon' })).toHaveAttribute('src', '/media/r.png');
    expect(screen.getByRole('link', { name: 'Raccoon' })).toHaveAttribute('href', '/product/3');
    expect(screen.getByText('$24.99')).toBeInTheDocument();
  });

  it('always shows two decimals', () => {
    renderCard(makeProduct({ price: 5 }));
    expect(screen.getByText('$5.00')).toBeInTheDocument();
  });

  it('shows "Save $X" with X the rounded difference between savings and price', () => {
    renderCard(makeProduct({ price: 24.99, savings: 39.99 }));
    expect(screen.getByText('Save $15')).toBeInTheDocument();
    expect(screen.getByText('$39.99')).toBeInTheDocument();
  });

  it('rounds the saving half up', () => {
    renderCard(makeProduct({ price: 10, savings: 12.5 }));
    expect(screen.getByText('Save $3')).toBeInTheDocument();
  });

  it('shows no saving when savings is null or 0', () => {
    const { unmount } = renderCard(makeProduct({ savings: null }));
    expect(screen.queryByText(/^Save \$/)).not.toBeInTheDocument();
    unmount();
    renderCard(makeProduct({ savings: 0 }));
    expect(screen.queryByText(/^Save \$/)).not.toBeInTheDocument();
  });

  it('shows "N Stock Left" for a finite stock', () => {
    renderCard(makeProduct({ stock: 5 }));
    expect(screen.getByText('5 Stock Left')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /^Add to Cart: / })).toBeEnabled();
  });

  it('shows no stock badge when the stock is unlimited', () => {
    renderCard(makeProduct({ stock: null }));
    expect(screen.queryByText(/Stock Left|Out of Stock/)).not.toBeInTheDocument();
  });

  it('marks an out-of-stock product and disables its button', () => {
    const { onAddToCart } = renderCard(makeProduct({ name: 'Dragonfly', stock: 0 }));
    const button = screen.getByRole('button', { name: /out of stock/i });
    expect(button).toBeDisabled();
    expect(button).toHaveTextContent('Out of Stock');
    expect(screen.getAllByText('Out of Stock')).toHaveLength(2);
    expect(onAddToCart).not.toHaveBeenCalled();
  });

  it('shows the weight and the mutation when present', () => {
    renderCard(makeProduct({ weight: 2.5, mutation: 'Rainbow' }));
    expect(screen.getByText('2.5 kg')).toBeInTheDocument();
    expect(screen.getByText('Rainbow')).toBeInTheDocument();
  });

  it('hands the product to onAddToCart', async () => {
    const bee = makeProduct({ name: 'Bee' });
    const { user, onAddToCart } = renderCard(bee);
    await user.click(screen.getByRole('button', { name: 'Add to Cart: Bee' }));
    expect(onAddToCart).toHaveBeenCalledWith(bee);
  });

  it('falls back to a named picture when there is no image', () => {
    renderCard(makeProduct({ name: 'Mystery Egg', image: null }));
    expect(screen.getByRole('img', { name: 'Mystery Egg' })).toBeInTheDocument();
  });

  it('names its button starting with the visible label', () => {
    const { unmount } = renderCard(makeProduct({ name: 'Raccoon', stock: 3 }));
    const add = screen.getByRole('button', { name: 'Add to Cart: Raccoon' });
    expect(add).toHaveTextContent('Add to Cart');
    expect(add.getAttribute('aria-label')?.startsWith(add.textContent ?? '-')).toBe(true);
    unmount();
    renderCard(makeProduct({ name: 'Dragonfly', stock: 0 }));
    const soldOut = screen.getByRole('button', { name: 'Out of Stock: Dragonfly' });
    expect(soldOut).toHaveTextContent('Out of Stock');
    expect(soldOut.getAttribute('aria-label')?.startsWith(soldOut.textContent ?? '-')).toBe(true);
  });

  it('fetches the first card’s picture first', () => {
    const image = '/media/products/00112233445566778899aabbccddeeff.png';
    renderWithProviders(
      <ProductCard
        product={makeProduct({ name: 'Raccoon', image })}
        onAddToCart={vi.fn()}
        priority
      />,
    );
    expect(screen.getByRole('img', { name: 'Raccoon' })).toHaveAttribute('fetchpriority', 'high');
  });

  it('counts an upcoming drop down on its badge; its Add to Cart is off until released', async () => {
    vi.useFakeTimers({ now: Date.parse('2026-11-27T03:00:00Z') - 299_000 });
    try {
      const owl = makeProduct({
        name: 'Night Owl',
        stock: 4,
        released: false,
        release_at: '2026-11-27T03:00:00Z',
      });
      const { onAddToCart, unmount } = renderCard(owl);
      expect(screen.getByText('Drops in 4:59')).toBeInTheDocument();
      const button = screen.getByRole('button', { name: 'Drops soon: Night Owl' });
      expect(button).toBeDisabled();
      expect(button).toHaveTextContent('Drops soon');
      await act(() => vi.advanceTimersByTimeAsync(299_000));
      expect(screen.getByText('Dropping…')).toBeInTheDocument();
      expect(button).toBeDisabled();
      expect(onAddToCart).not.toHaveBeenCalled();

      unmount();
      renderCard({ ...owl, released: true });
      expect(screen.queryByText('Dropping…')).not.toBeInTheDocument();
      expect(screen.getByRole('button', { name: 'Add to Cart: Night Owl' })).toBeEnabled();
    } finally {
      vi.useRealTimers();
    }
  });
});
