import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

import { AppLayout } from '@/app/layout/app-layout';
import { useCartStore } from '@/features/cart/stores/cart-store';
import { makeProduct } from '@/testing/factories';
import { jsonResponse, renderWithProviders } from '@/testing/test-utils';

function stubApi(reviewsUrl = 'https://reviews.example/garden-shop') {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) =>
      url === '/api/site'
        ? jsonResponse({ name: 'Garden Shop', reviews_url: reviewsUrl })
        : jsonResponse({ message: 'Not found.', errors: {} }, 404),
    ),
  );
}

describe('app shell', () => {
  it('has the brand, the account links, the reviews link from /api/site and the cart', async () => {
    stubApi();
    useCartStore.getState().addItem(makeProduct({ name: 'Bee' }));
    useCartStore.getState().close();
    renderWithProviders(<AppLayout />);

    const header = screen.getByRole('banner');
    expect(within(header).getByRole('link', { name: 'Garden Shop' })).toHaveAttribute('href', '/');
    expect(within(header).getByRole('link', { name: 'Login' })).toHaveAttribute('href', '/login');
    expect(within(header).getByRole('link', { name: 'Register' })).toHaveAttribute(
      'href',
      '/register',
    );
    const reviews = await within(header).findByRole('link', { name: /reviews/i });
    expect(reviews).toHaveAttribute('href', 'https://reviews.example/garden-shop');
    expect(reviews).toHaveAttribute('target', '_blank');
    expect(reviews.getAttribute('rel')).toContain('noopener');
    expect(within(header).getByRole('button', { name: 'Your Cart, 1 item' })).toBeInTheDocument();
  });

  it("opens the shop's own /reviews when no reviews site is set", async () => {
    stubApi('');
    renderWithProviders(<AppLayout />);
    const header = screen.getByRole('banner');
    const reviews = await within(header).findByRole('link', { name: 'Reviews' });
    expect(reviews).toHaveAttribute('href', '/reviews');
    expect(reviews).not.toHaveAttribute('target');
  });

  it('has the footer links and the copyright line', () => {
    stubApi();
    renderWithProviders(<AppLayout />);
    const footer = screen.getByRole('contentinfo');
    const expected: Array<[string, string]> = [
      ['About Us', '/about'],
      ['How it works', '/how-it-works'],
      ['FAQ', '/faq'],
      ['Privacy Policy', '/privacy-policy'],
      ['Terms of Service', '/terms'],
      ['Refund Policy', '/refund-policy'],
    ];
    for (const [name, href] of expected) {
      expect(within(footer).getByRole('link', { name })).toHaveAttribute('href', href);
    }
    expect(within(footer).getByRole('heading', { name: 'Our Shop' })).toBeInTheDocument();
    expect(within(footer).getByRole('heading', { name: 'Help' })).toBeInTheDocument();
    expect(footer).toHaveTextContent(
      `© ${new Date().getFullYear()} Garden Shop. Not affiliated with Roblox Corporation.`,
    );
  });
});
