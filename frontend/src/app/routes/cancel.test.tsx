import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { CancelRoute } from '@/app/routes/cancel';
import { fakeApi } from '@/features/auth/testing/fake-api';
import { jsonResponse, renderWithProviders } from '@/testing/test-utils';

describe('/cancel', () => {
  it('says the payment was cancelled, releases the order once and links back to /checkout', async () => {
    const calls = fakeApi({
      'POST /orders/42/cancel': () => jsonResponse({ id: 42, status: 'cancelled' }),
    });
    renderWithProviders(<CancelRoute />, { url: '/cancel?order_id=42', path: '/cancel' });
    expect(screen.getByRole('heading', { level: 1, name: 'Payment cancelled' })).toBeVisible();
    expect(screen.getByText(/nothing was charged/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to checkout' })).toHaveAttribute(
      'href',
      '/checkout',
    );
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0]).toMatchObject({ method: 'POST', path: '/orders/42/cancel' });
  });

  it('ignores a failed cancel (e.g. the provider already cancelled it)', async () => {
    const calls = fakeApi({
      'POST /orders/42/cancel': () => jsonResponse({ message: 'Not pending.' }, 409),
    });
    renderWithProviders(<CancelRoute />, { url: '/cancel?order_id=42', path: '/cancel' });
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(screen.getByRole('heading', { name: 'Payment cancelled' })).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('calls nothing without an order id', () => {
    const calls = fakeApi({});
    renderWithProviders(<CancelRoute />, { url: '/cancel', path: '/cancel' });
    expect(screen.getByRole('heading', { name: 'Payment cancelled' })).toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });
});
