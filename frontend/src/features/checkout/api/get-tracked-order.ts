import { queryOptions, useQuery } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';

import type { Order } from '@/features/checkout/types';
import { api, ApiError } from '@/lib/api-client';
import { isLive, subscribeLive } from '@/lib/live-events';
import { queryKeys } from '@/lib/query-keys';
import type { Schemas, WithRequired } from '@/types/api';

export type TimelineStatus =
  'paid' | 'claimed' | 'delivered' | 'received' | 'refunded' | 'disputed' | 'expired' | 'cancelled';

/** The handoff as the buyer sees it; every field is null until it applies. */
export type OrderDelivery = Schemas['OrderDeliveryResponse'];

/** `queue_position`: 1 for the next order staff deliver; null unless paid and waiting. */
export type TrackedOrder = Order &
  Omit<
    WithRequired<Schemas['TrackedOrderResponse'], 'delivered_at' | 'queue_position'>,
    keyof Order | 'timeline'
  > & {
    timeline: Array<Omit<Schemas['TimelineStepResponse'], 'status'> & { status: TimelineStatus }>;
  };

/** How often the page asks again while the order still moves and the event stream is down. */
export const TRACKING_POLL_MS = 15_000;

/** How often the success page asks while the payment is not yet confirmed (stream down). */
export const CONFIRMING_POLL_MS = 2000;

/** `?key=…` for the order's calls when the page was opened with the link's key. */
export function orderKeyQuery(key: string | null): { key?: string } {
  return key ? { key } : {};
}

export const trackedOrderQueryKey = queryKeys.orders.tracked;

/** GET /api/orders/{id}?key=…: anyone with the link; without a key, its session or owner. */
export function getTrackedOrder(
  id: number,
  key: string | null,
  { signal }: { signal?: AbortSignal } = {},
): Promise<TrackedOrder> {
  return api.get('/orders/{id}', {
    params: { path: { id }, query: orderKeyQuery(key) },
    signal,
  }) as Promise<TrackedOrder>;
}

export function getTrackedOrderQueryOptions(id: number, key: string | null) {
  return queryOptions({
    queryKey: trackedOrderQueryKey(id, key),
    queryFn: ({ signal }) => getTrackedOrder(id, key, { signal }),
  });
}

/**
 * The order, kept fresh: the event stream's `order` events refetch it (see `useOrderStream`);
 * while the stream is down, it is asked again every 15 s as long as the order still moves
 * (`confirming`: every 2 s until the payment is confirmed, as the success page wants).
 */
export function useTrackedOrder(
  id: number,
  key: string | null,
  { confirming = false }: { confirming?: boolean } = {},
) {
  // re-rendered when the stream goes up or down, so the interval below is worked out again
  const live = useSyncExternalStore(subscribeLive, isLive, () => false);
  return useQuery({
    ...getTrackedOrderQueryOptions(id, key),
    refetchInterval: (query) => {
      if (query.state.error instanceof ApiError && query.state.error.isNotFound) return false;
      if (live) return false;
      const status = query.state.data?.status;
      if (confirming && (status === undefined || status === 'pending')) return CONFIRMING_POLL_MS;
      return status === 'pending' || status === 'paid' ? TRACKING_POLL_MS : false;
    },
    retry: false,
  });
}
