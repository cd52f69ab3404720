import { QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { stubApi } from '@/testing/api-stub';
import { createTestQueryClient, jsonResponse } from '@/testing/test-utils';

import { ORDERS_CLOCK_MS, useAdminOrders } from './get-admin-orders';

const live = vi.hoisted(() => ({ up: true }));

vi.mock('@/lib/live-events', () => ({
  isLive: () => live.up,
  pollWhileDown: (ms: number) => () => (live.up ? false : ms),
}));

afterEach(() => {
  vi.useRealTimers();
});

function renderQueueQuery() {
  const client = createTestQueryClient();
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>{children}</QueryClientProvider>
  );
  return renderHook(() => useAdminOrders('paid'), { wrapper });
}

describe('the queue while the event stream is up', () => {
  it('is asked again once a minute, for the waits and no-shows that move with the clock', async () => {
    vi.useFakeTimers();
    live.up = true;
    const api = stubApi({ 'GET /admin/orders': () => jsonResponse([]) });
    renderQueueQuery();
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(api.callsTo('GET /admin/orders')).toHaveLength(1);
    await act(() => vi.advanceTimersByTimeAsync(ORDERS_CLOCK_MS - 1000));
    expect(api.callsTo('GET /admin/orders')).toHaveLength(1);
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(api.callsTo('GET /admin/orders')).toHaveLength(2);
  });
});
