import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { renderWithProviders } from '@/testing/test-utils';

import { LinkedText } from './linked-text';

const SHOP = 'https://shop.example';

describe('LinkedText', () => {
  it('links the shop’s own pages in place and other https addresses in a new tab', async () => {
    const { user, router } = renderWithProviders(
      <p>
        <LinkedText
          origin={SHOP}
          text={
            'Your order page: order #12 (Paid): https://shop.example/orders/12. ' +
            'Join our Discord server (https://discord.gg/gardenshop), then wait.'
          }
        />
      </p>,
    );
    const order = screen.getByRole('link', { name: 'https://shop.example/orders/12' });
    expect(order).toHaveAttribute('href', '/orders/12');
    expect(order).not.toHaveAttribute('target');
    const invite = screen.getByRole('link', { name: 'https://discord.gg/gardenshop' });
    expect(invite).toHaveAttribute('href', 'https://discord.gg/gardenshop');
    expect(invite).toHaveAttribute('target', '_blank');
    expect(invite).toHaveAttribute('rel', 'noopener noreferrer');
    // the sentence around the addresses stays as it was
    expect(screen.getByText(/Your order page: order #12 \(Paid\):/).textContent).toBe(
      'Your order page: order #12 (Paid): https://shop.example/orders/12. ' +
        'Join our Discord server (https://discord.gg/gardenshop), then wait.',
    );
    await user.click(order);
    expect(router.state.location.pathname).toBe('/orders/12');
  });

  it('leaves plain http addresses of other sites and text without addresses alone', () => {
    renderWithProviders(
      <p>
        <LinkedText origin={SHOP} text="See http://elsewhere.example/x and nothing else." />
      </p>,
    );
    expect(screen.queryByRole('link')).toBeNull();
    expect(screen.getByText('See http://elsewhere.example/x and nothing else.')).toBeVisible();
  });
});
