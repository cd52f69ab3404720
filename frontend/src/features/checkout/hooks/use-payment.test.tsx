import { QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import {
  DETAILS_REQUIRED,
  detailsSummary,
  usePayment,
} from '@/features/checkout/hooks/use-payment';
import type { CheckoutItem, ServerPricedCart } from '@/features/checkout/types';
import { NO_REDIRECT_URL } from '@/features/checkout/utils/payment-errors';
import { redirectTo } from '@/features/checkout/utils/redirect';
import { stubApi, type StubCall } from '@/testing/api-stub';
import { createTestQueryClient, jsonResponse } from '@/testing/test-utils';

vi.mock('@/features/checkout/utils/redirect', () => ({ redirectTo: vi.fn() }));

const owl: CheckoutItem = {
  id: 7,
  name: 'Owl',
  description: 'A wise pet.',
  price: 4.99,
  qty: 2,
  stock: 5,
  weight: null,
  mutation: null,
};

const identity = { discord_id: '42', username: 'gardenfan', avatar: null };
const details = { robloxUsername: ' Builderman ', email: ' fan@example.com ' };

type Options = Parameters<typeof usePayment>[0];

function renderPayment(overrides: Partial<Options> = {}) {
  const client = createTestQueryClient();
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>{children}</QueryClientProvider>
  );
  const onPricesChanged = vi.fn();
  const options: Options = {
    items: [owl],
    liveProducts: [{ id: 7, stock: 5 }],
    identity,
    details,
    userId: 3,
    charged: {
      total: 998,
      currency: { code: 'USD', rate: '1', minor_units: 2, rounding: 'minor' },
    },
    promo: null,
    onPricesChanged,
    ...overrides,
  };
  return { ...renderHook(() => usePayment(options), { wrapper }), onPricesChanged };
}

describe('usePayment', () => {
  beforeEach(() => vi.mocked(redirectTo).mockClear());

  it('asks for the details before anything else, naming only what is missing', () => {
    const { result } = renderPayment({ identity: null });
    act(() => result.current.complete());
    expect(result.current.formError).toBe('Please link Discord.');
    expect(result.current.fieldErrorsShown).toBe(1);
    expect(result.current.choosingMethod).toBe(false);
  });

  it.each([
    [{ roblox_username: 'x', email: 'x', discord: 'x' }, DETAILS_REQUIRED()],
    [{ roblox_username: 'x', email: 'x' }, 'Please enter your Roblox username and email.'],
    [{ roblox_username: 'x', discord: 'x' }, 'Please enter your Roblox username and link Discord.'],
    [{ email: 'x', discord: 'x' }, 'Please enter your email and link Discord.'],
    [{ roblox_username: 'x' }, 'Please enter your Roblox username.'],
    [{ email: 'x' }, 'Please enter your email.'],
    [{ discord: 'x' }, 'Please link Discord.'],
    [{}, null],
  ])('sums up the missing details %j as %j', (missing, summary) => {
    expect(detailsSummary(missing)).toBe(summary);
  });

  it('checks the stock against the live products, then opens the method choice', () => {
    const { result } = renderPayment({ liveProducts: [{ id: 7, stock: 1 }] });
    act(() => result.current.complete());
    expect(result.current.problems).toEqual(['- Owl has only 1 in stock, but you selected 2.']);
    expect(result.current.choosingMethod).toBe(false);

    const fine = renderPayment();
    act(() => fine.result.current.complete());
    expect(fine.result.current.problems).toBeNull();
    expect(fine.result.current.choosingMethod).toBe(true);
  });

  it('sends the order with the promo and goes to the returned url, staying on Processing', async () => {
    const api = stubApi({
      'POST /stripe/checkout': () => jsonResponse({ url: 'https://pay.example/s/1' }),
    });
    const { result } = renderPayment({ promo: { code: 'SUMMER10', percent: 10 } });
    act(() => result.current.pay('card'));
    expect(result.current.processing).toBe('card');
    await waitFor(() => expect(redirectTo).toHaveBeenCalledWith('https://pay.example/s/1'));
    expect(result.current.processing).toBe('card');
    expect(api.callsTo('POST /stripe/checkout')[0]?.body).toEqual({
      discord_id: '42',
      email: 'fan@example.com',
      roblox_username: 'Builderman',
      items: [owl],
      total: 9.98,
      currency: 'USD',
      user_id: 3,
      promo_code: 'SUMMER10',
    });
  });

  it('says so when no redirect url comes back, and shows the server’s stock problems', async () => {
    const api = stubApi({ 'POST /checkout/paypal': () => jsonResponse({}) });
    const { result } = renderPayment();
    act(() => result.current.pay('paypal'));
    await waitFor(() => expect(result.current.formError).toBe(NO_REDIRECT_URL()));
    expect(result.current.processing).toBeNull();

    api.handlers['POST /checkout/paypal'] = () =>
      jsonResponse({ message: 'Stock.', problems: ['- Owl is out of stock.'] }, 409);
    act(() => result.current.pay('paypal'));
    await waitFor(() => expect(result.current.problems).toEqual(['- Owl is out of stock.']));
    expect(result.current.formError).toBeNull();
  });

  it('holds a price change for review and pays the server’s total once confirmed', async () => {
    const cart: ServerPricedCart = {
      lines: [
        { id: 7, name: 'Owl', unit_price: 5.49, qty: 2, line_total: 10.98, unit_price_paid: 5.49 },
      ],
      subtotal: 10.98,
      discount_percent: null,
      discount: 0,
      total: 10.98,
      fee: 0.8,
      grand_total: 11.78,
      currency: 'USD',
      paid: { rate: '1', subtotal: 10.98, discount: 0, total: 10.98, fee: 0.8, grand_total: 11.78 },
    };
    const api = stubApi({
      'POST /stripe/checkout': () => jsonResponse({ message: 'Prices changed.', cart }, 409),
    });
    const { result, onPricesChanged } = renderPayment({
      promo: { code: 'SUMMER10', percent: 10 },
    });
    act(() => result.current.pay('card'));
    await waitFor(() => expect(result.current.priceChange).not.toBeNull());
    expect(result.current.priceChange).toEqual({
      cart,
      message: 'Prices changed.',
      method: 'card',
    });
    expect(onPricesChanged).toHaveBeenCalledWith(false);

    api.handlers['POST /stripe/checkout'] = () => jsonResponse({ url: 'https://pay.example/s/2' });
    act(() => result.current.confirmPriceChange());
    await waitFor(() => expect(redirectTo).toHaveBeenCalledWith('https://pay.example/s/2'));
    const confirmed = api.callsTo('POST /stripe/checkout')[1]?.body as Record<string, unknown>;
    expect(confirmed.total).toBe(10.98);
    expect(confirmed).not.toHaveProperty('promo_code');
  });

  it('charges in the shopper’s currency, and after a changed rate in the server’s new total', async () => {
    const brl = { code: 'BRL', rate: '5.34144', minor_units: 2, rounding: 'minor' };
    // the rate moved between page and press: the server's cart at the new one
    const cart: ServerPricedCart = {
      lines: [
        { id: 7, name: 'Owl', unit_price: 4.99, qty: 2, line_total: 9.98, unit_price_paid: 26.9 },
      ],
      subtotal: 9.98,
      discount_percent: null,
      discount: 0,
      total: 9.98,
      fee: 0.8,
      grand_total: 10.78,
      currency: 'BRL',
      paid: {
        rate: '5.39',
        subtotal: 53.8,
        discount: 0,
        total: 53.8,
        fee: 4.17,
        grand_total: 57.97,
      },
    };
    const api = stubApi({
      'POST /stripe/checkout': () => jsonResponse({ message: 'Prices changed.', cart }, 409),
    });
    const { result } = renderPayment({ charged: { total: 5330, currency: brl } });
    act(() => result.current.pay('card'));
    await waitFor(() => expect(result.current.priceChange).not.toBeNull());
    const first = api.callsTo('POST /stripe/checkout')[0]?.body as Record<string, unknown>;
    expect(first).toMatchObject({ total: 53.3, currency: 'BRL' });

    api.handlers['POST /stripe/checkout'] = () => jsonResponse({ url: 'https://pay.example/s/3' });
    act(() => result.current.confirmPriceChange());
    await waitFor(() => expect(redirectTo).toHaveBeenCalledWith('https://pay.example/s/3'));
    const confirmed = api.callsTo('POST /stripe/checkout')[1]?.body as Record<string, unknown>;
    expect(confirmed).toMatchObject({ total: 53.8, currency: 'BRL' });
  });
});

describe('usePayment and the Idempotency-Key', () => {
  beforeEach(() => vi.mocked(redirectTo).mockClear());
  afterEach(() => vi.useRealTimers());

  const keyOf = (call: StubCall | undefined) => call?.headers.get('Idempotency-Key');
  const offline = () => {
    throw new TypeError('Failed to fetch');
  };

  it('sends one key per press, and the same key again when the shop did not answer', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let calls = 0;
    const api = stubApi({
      // the order is placed but the answer is lost, then the retry gets it
      'POST /stripe/checkout': () =>
        ++calls === 1 ? offline() : jsonResponse({ url: 'https://pay.example/s/1', order_id: 5 }),
    });
    const { result } = renderPayment();
    act(() => result.current.pay('card'));
    await act(() => vi.advanceTimersByTimeAsync(1000));
    await waitFor(() => expect(redirectTo).toHaveBeenCalledWith('https://pay.example/s/1'));
    const sent = api.callsTo('POST /stripe/checkout');
    expect(sent).toHaveLength(2);
    expect(keyOf(sent[0])).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    expect(keyOf(sent[1])).toBe(keyOf(sent[0]));
  });

  it('waits as asked while the first request of the key is still placing the order', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let calls = 0;
    const api = stubApi({
      'POST /checkout/paypal': () =>
        ++calls === 1
          ? new Response(
              JSON.stringify({ message: 'Your order is still being placed.', errors: {} }),
              {
                status: 409,
                headers: { 'Content-Type': 'application/json', 'Retry-After': '2' },
              },
            )
          : jsonResponse({ approval_url: 'https://paypal.example/a/1' }),
    });
    const { result } = renderPayment();
    act(() => result.current.pay('paypal'));
    await act(() => vi.advanceTimersByTimeAsync(1500));
    expect(api.callsTo('POST /checkout/paypal')).toHaveLength(1);
    await act(() => vi.advanceTimersByTimeAsync(1000));
    await waitFor(() => expect(redirectTo).toHaveBeenCalledWith('https://paypal.example/a/1'));
    const sent = api.callsTo('POST /checkout/paypal');
    expect(keyOf(sent[1])).toBe(keyOf(sent[0]));
  });

  it('keeps the key of an unanswered press for the next press of the same order only', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const api = stubApi({ 'POST /stripe/checkout': offline });
    const { result } = renderPayment();
    act(() => result.current.pay('card'));
    await act(() => vi.advanceTimersByTimeAsync(10_000));
    await waitFor(() => expect(result.current.processing).toBeNull());
    expect(result.current.formError).toBe(
      'We could not reach the shop. Check your connection and try again.',
    );
    const first = api.callsTo('POST /stripe/checkout');
    expect(first).toHaveLength(4);
    expect(new Set(first.map(keyOf)).size).toBe(1);

    // the shopper presses again: the same order, so the same key
    api.handlers['POST /stripe/checkout'] = () =>
      jsonResponse({ message: 'Stock.', problems: ['- Owl is out of stock.'] }, 409);
    act(() => result.current.pay('card'));
    await waitFor(() => expect(result.current.problems).toEqual(['- Owl is out of stock.']));
    expect(keyOf(api.calls.at(-1))).toBe(keyOf(first[0]));

    // that press was answered: the next one is a new press with a new key
    act(() => result.current.pay('card'));
    await waitFor(() => expect(api.callsTo('POST /stripe/checkout')).toHaveLength(6));
    const third = keyOf(api.calls.at(-1));
    expect(third).not.toBe(keyOf(first[0]));

    // an order that changed (another method) is another press too, even unanswered
    api.handlers['POST /checkout/paypal'] = offline;
    api.handlers['POST /stripe/checkout'] = offline;
    act(() => result.current.pay('card'));
    await act(() => vi.advanceTimersByTimeAsync(10_000));
    await waitFor(() => expect(result.current.processing).toBeNull());
    const unanswered = keyOf(api.calls.at(-1));
    act(() => result.current.pay('paypal'));
    await waitFor(() => expect(api.callsTo('POST /checkout/paypal')).toHaveLength(1));
    expect(keyOf(api.callsTo('POST /checkout/paypal')[0])).not.toBe(unanswered);
  });
});
