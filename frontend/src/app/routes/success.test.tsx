import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { SuccessRoute } from '@/app/routes/success';
import { fakeApi, queryClientWithSession } from '@/features/auth/testing/fake-api';
import { CART_STORAGE_KEY, useCartStore } from '@/features/cart/stores/cart-store';
import type { TrackedOrder } from '@/features/checkout/api/get-tracked-order';
import { makeDeliverySteps, makeOrderSteps, makeProduct } from '@/testing/factories';
import { jsonResponse, renderWithProviders } from '@/testing/test-utils';

// The library's default cannon draws in a worker (a `blob:` script the CSP refuses): the page
// makes its own cannon without one, and fires that.
const confetti = vi.hoisted(() => Object.assign(vi.fn(), { reset: vi.fn() }));
const createCannon = vi.hoisted(() => vi.fn(() => confetti));
const defaultCannon = vi.hoisted(() => vi.fn());
vi.mock('canvas-confetti', () => ({
  default: Object.assign(defaultCannon, { create: createCannon }),
}));

function order(overrides: Partial<TrackedOrder> = {}): TrackedOrder {
  return {
    id: 42,
    status: 'pending',
    status_label: 'Pending',
    language: 'en',
    awaiting_payment: false,
    pay_by: null,
    items: [{ id: 1, name: 'Bee', qty: 2, unit_price: 4.99, unit_price_paid: 4.99 }],
    subtotal: 9.98,
    discount: 0,
    fee: 0.75,
    total: 10.73,
    currency: 'USD',
    amount_paid: 10.73,
    rate: '1',
    roblox_username: 'Builderman',
    created_at: '2026-11-21T10:00:00Z',
    paid_at: null,
    delivered_at: null,
    timeline: [],
    queue_position: null,
    over_promise: false,
    join_by: null,
    being_checked: false,
    estimate_minutes: 15,
    delivery: {
      staff_name: null,
      private_server_url: null,
      claimed_at: null,
      buyer_ready_at: null,
      received_at: null,
      ticket_url: null,
      ticket_problem: null,
      proof_picture: null,
      released: null,
      no_show: false,
    },
    steps: makeOrderSteps(INVITE),
    ...overrides,
  };
}

const INVITE = 'https://discord.gg/garden';

function site() {
  return {
    name: 'Garden Shop',
    reviews_url: '',
    paypal_enabled: false,
    discord_invite_url: INVITE,
    delivery_minutes: 15,
    evidence_retention_days: 120,
    delivery_steps: makeDeliverySteps(INVITE),
  };
}

function renderSuccess(url = '/success?order_id=42') {
  const bee = makeProduct({ id: 1, name: 'Bee' });
  useCartStore.getState().addItem(bee);
  return renderWithProviders(<SuccessRoute />, {
    url,
    path: '/success',
    queryClient: queryClientWithSession(null),
  });
}

afterEach(() => {
  vi.useRealTimers();
  confetti.mockReset();
  createCannon.mockClear();
  defaultCannon.mockReset();
});

describe('/success', () => {
  it('celebrates with 300 pieces of confetti and empties the cart and its saved copy', async () => {
    fakeApi({ 'GET /orders/42': () => jsonResponse(order()) });
    renderSuccess();
    expect(screen.getByRole('heading', { level: 1, name: 'Payment Successful' })).toBeVisible();
    await waitFor(() => expect(confetti).toHaveBeenCalledTimes(1));
    expect(confetti.mock.calls[0]?.[0]).toMatchObject({ particleCount: 300 });
    expect(createCannon).toHaveBeenCalledWith(undefined, { useWorker: false, resize: true });
    expect(defaultCannon).not.toHaveBeenCalled();
    expect(useCartStore.getState().items).toEqual([]);
    expect(JSON.parse(window.localStorage.getItem(CART_STORAGE_KEY) ?? 'null')).toEqual([]);
    expect(await screen.findByTestId('order-page-status')).toHaveTextContent('Pending');
  });

  it('shows the order as Pending, polls every 2 s and shows Paid only once the server says so', async () => {
    vi.useFakeTimers();
    const answers = [order(), order(), order({ status: 'paid', status_label: 'Paid' })];
    const calls = fakeApi({
      'GET /orders/42': () =>
        jsonResponse(answers.shift() ?? order({ status: 'paid', status_label: 'Paid' })),
    });
    const polls = () => calls.filter((c) => c.path === '/orders/42').length;
    renderSuccess();
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(screen.getByRole('heading', { name: 'Order #42' })).toBeInTheDocument();
    expect(screen.getByTestId('order-page-status')).toHaveTextContent('Pending');
    expect(screen.queryByText('Paid')).not.toBeInTheDocument();
    expect(screen.getByText(/Waiting for the payment provider/)).toBeInTheDocument();
    expect(polls()).toBe(1);

    await act(() => vi.advanceTimersByTimeAsync(1900));
    expect(polls()).toBe(1);
    await act(() => vi.advanceTimersByTimeAsync(100));
    expect(polls()).toBe(2);
    expect(screen.getByTestId('order-page-status')).toHaveTextContent('Pending');

    await act(() => vi.advanceTimersByTimeAsync(2000));
    expect(polls()).toBe(3);
    await act(() => vi.advanceTimersByTimeAsync(50));
    expect(screen.getByTestId('order-page-status')).toHaveTextContent('Paid');
    expect(screen.getByText(/Your payment is confirmed/)).toBeInTheDocument();
    // Paid: the polling stops.
    await act(() => vi.advanceTimersByTimeAsync(10_000));
    expect(polls()).toBe(3);
  });

  it('is the order’s live page: its steps, and Follow your order as the first action', async () => {
    fakeApi({
      'GET /orders/42?key=k42': () =>
        jsonResponse(
          order({
            status: 'paid',
            status_label: 'Paid',
            queue_position: 2,
            steps: makeOrderSteps(INVITE, ['discord']),
          }),
        ),
      'GET /site': () => jsonResponse(site()),
    });
    renderSuccess('/success?order_id=42&key=k42');
    const follow = screen.getByRole('link', { name: 'Follow your order' });
    expect(follow).toHaveAttribute('href', '/orders/42?key=k42');
    expect(follow.className).not.toMatch(/secondary/);
    expect(await screen.findByRole('heading', { level: 2, name: 'Order #42' })).toBeVisible();
    const script = within(screen.getByRole('region', { name: 'Your steps' }));
    expect(script.getAllByRole('listitem').map((item) => item.dataset.state)).toEqual([
      'done',
      'current',
      'todo',
      'todo',
      'todo',
      'todo',
    ]);
    expect(screen.getByRole('region', { name: 'Waiting for staff' })).toBeVisible();
    // the first link on the page after the hero's own is the order's, not the way back
    const links = screen.getAllByRole('link').map((link) => link.textContent);
    expect(links.indexOf('Follow your order')).toBeLessThan(links.indexOf('Back to the shop'));
  });

  it('shows the shop’s steps when there is no order number', async () => {
    fakeApi({ 'GET /site': () => jsonResponse(site()) });
    renderSuccess('/success');
    const script = within(await screen.findByRole('region', { name: 'What happens next' }));
    expect(script.getByRole('link', { name: /Join our Discord server/ })).toHaveAttribute(
      'href',
      INVITE,
    );
    expect(script.getAllByRole('listitem')).toHaveLength(6);
  });

  it('says so when the order is not this visitor’s, and stops asking', async () => {
    vi.useFakeTimers();
    const calls = fakeApi({});
    renderSuccess();
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(screen.getByText(/This link does not open an order/)).toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(6000));
    expect(calls.filter((c) => c.path === '/orders/42')).toHaveLength(1);
  });

  it('shows no order section without an order id', () => {
    const calls = fakeApi({});
    renderSuccess('/success');
    expect(screen.getByRole('heading', { name: 'Payment Successful' })).toBeInTheDocument();
    expect(screen.queryByText(/Order #/)).not.toBeInTheDocument();
    // nothing is below: the lead does not point at a status (issue 23)
    expect(screen.queryByText(/status is below/)).not.toBeInTheDocument();
    expect(screen.getByText(/Thank you for your order!/)).toHaveTextContent(
      'staff start delivering once your payment is confirmed',
    );
    expect(calls.filter((c) => c.path.startsWith('/orders'))).toHaveLength(0);
  });
});
