import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { OrderRoute } from '@/app/routes/order';
import { fakeApi, queryClientWithSession } from '@/features/auth/testing/fake-api';
import type { TrackedOrder } from '@/features/checkout/api/get-tracked-order';
import { queueText } from '@/features/checkout/utils/order-key';
import { jsonResponse, renderWithProviders } from '@/testing/test-utils';

function tracked(overrides: Partial<TrackedOrder> = {}): TrackedOrder {
  return {
    id: 42,
    status: 'paid',
    status_label: 'Paid',
    items: [{ id: 1, name: 'Golden Owl', qty: 2, unit_price: 10 }],
    subtotal: 20,
    discount: 0,
    fee: 1.2,
    total: 21.2,
    roblox_username: 'Builder_Bob',
    created_at: '2026-11-21T10:00:00Z',
    paid_at: '2026-11-21T10:01:00Z',
    delivered_at: null,
    timeline: [{ status: 'paid', at: '2026-11-21T10:01:00Z' }],
    queue_position: 4,
    ...overrides,
  };
}

function renderOrder(url: string) {
  return renderWithProviders(<OrderRoute />, {
    url,
    path: '/orders/:id',
    queryClient: queryClientWithSession(null),
  });
}

describe('/orders/:id', () => {
  it('opens with the key of the link: status, queue, timeline, items, total, Roblox name', async () => {
    const calls = fakeApi({ 'GET /orders/42?key=abc123': () => jsonResponse(tracked()) });
    renderOrder('/orders/42?key=abc123');
    expect(await screen.findByRole('heading', { level: 1, name: 'Order #42' })).toBeVisible();
    expect(calls[0]?.path).toBe('/orders/42?key=abc123');
    expect(screen.getByTestId('order-page-status')).toHaveTextContent('Paid');
    expect(screen.getByTestId('queue-position')).toHaveTextContent(
      '3 orders before yours in the delivery queue',
    );
    const progress = screen.getByRole('list', { name: 'Order progress' });
    const steps = within(progress).getAllByRole('listitem');
    expect(steps.map((s) => s.textContent)).toEqual([
      expect.stringContaining('Paid'),
      expect.stringContaining('Claimed by staffNot yet'),
      expect.stringContaining('DeliveredNot yet'),
    ]);
    expect(screen.getByText('2 × Golden Owl')).toBeVisible();
    expect(screen.getByText('$21.20')).toBeVisible();
    expect(screen.getByText('Builder_Bob')).toBeVisible();
  });

  it('shows a delivered order without a queue and a refunded one ending its way', async () => {
    fakeApi({
      'GET /orders/42?key=k': () =>
        jsonResponse(
          tracked({
            status: 'refunded',
            status_label: 'Refunded',
            queue_position: null,
            timeline: [
              { status: 'paid', at: '2026-11-21T10:01:00Z' },
              { status: 'refunded', at: '2026-11-21T12:00:00Z' },
            ],
          }),
        ),
    });
    renderOrder('/orders/42?key=k');
    expect(await screen.findByTestId('order-page-status')).toHaveTextContent('Refunded');
    expect(screen.queryByTestId('queue-position')).toBeNull();
    const steps = within(screen.getByRole('list', { name: 'Order progress' })).getAllByRole(
      'listitem',
    );
    expect(steps).toHaveLength(2);
    expect(steps[1]).toHaveTextContent('Refunded');
  });

  it('says the link does not open an order on a 404', async () => {
    fakeApi({});
    renderOrder('/orders/42?key=wrong');
    expect(await screen.findByRole('heading', { level: 1, name: 'Order not found' })).toBeVisible();
    expect(screen.getByRole('alert')).toHaveTextContent('full link from your receipt');
  });

  it('words the place in the queue', () => {
    expect(queueText(1)).toBe('Yours is next in line');
    expect(queueText(2)).toBe('1 order before yours');
    expect(queueText(4)).toBe('3 orders before yours');
  });
});
