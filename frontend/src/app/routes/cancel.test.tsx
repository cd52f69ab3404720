import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { CancelRoute } from '@/app/routes/cancel';
import { fakeApi } from '@/features/auth/testing/fake-api';
import { jsonResponse, renderWithProviders } from '@/testing/test-utils';

describe('/cancel', () => {
  it('says the payment was cancelled, releases the order once and links back to /checkout', async () => {
    const calls = fakeApi({
      'GET /orders/42': () => jsonResponse({ id: 42, status: 'pending' }),
      'POST /orders/42/cancel': () => jsonResponse({ id: 42, status: 'cancelled' }),
    });
    renderWithProviders(<CancelRoute />, { url: '/cancel?order_id=42', path: '/cancel' });
    expect(screen.getByRole('heading', { level: 1, name: 'Payment cancelled' })).toBeVisible();
    expect(screen.getByText(/nothing was charged/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to checkout' })).toHaveAttribute(
      'href',
      '/checkout',
    );
    await waitFor(() => expect(calls).toHaveLength(2));
    expect(calls[0]).toMatchObject({ method: 'GET', path: '/orders/42' });
    expect(calls[1]).toMatchObject({ method: 'POST', path: '/orders/42/cancel' });
  });

  it('sends no cancel for an order that is no longer pending (issue 23: it would only fail)', async () => {
    const calls = fakeApi({
      'GET /orders/42': () => jsonResponse({ id: 42, status: 'cancelled' }),
    });
    renderWithProviders(<CancelRoute />, { url: '/cancel?order_id=42', path: '/cancel' });
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0]).toMatchObject({ method: 'GET', path: '/orders/42' });
    // the GET has settled: had a cancel followed, it would be on its way now
    await new Promise((settled) => setTimeout(settled, 0));
    expect(calls).toHaveLength(1);
  });

  it('ignores a failed cancel (e.g. the provider already cancelled it)', async () => {
    const calls = fakeApi({
      'GET /orders/42': () => jsonResponse({ id: 42, status: 'pending' }),
      'POST /orders/42/cancel': () => jsonResponse({ message: 'Not pending.' }, 409),
    });
    renderWithProviders(<CancelRoute />, { url: '/cancel?order_id=42', path: '/cancel' });
    await waitFor(() => expect(calls).toHaveLength(2));
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
