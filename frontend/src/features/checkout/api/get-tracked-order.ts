import { useQuery } from '@tanstack/react-query';

import type { Order } from '@/features/checkout/types';
import { api, ApiError } from '@/lib/api-client';
import type { Schemas, WithRequired } from '@/types/api';

export type TimelineStatus =
  'paid' | 'claimed' | 'delivered' | 'refunded' | 'disputed' | 'expired' | 'cancelled';

/** `queue_position`: 1 for the next order staff deliver; null unless paid and waiting. */
export type TrackedOrder = Order &
  Omit<
    WithRequired<Schemas['TrackedOrderResponse'], 'delivered_at' | 'queue_position'>,
    keyof Order | 'timeline'
  > & {
    timeline: Array<Omit<Schemas['TimelineStepResponse'], 'status'> & { status: TimelineStatus }>;
  };

/** How often the page asks again while the order still moves. */
export const TRACKING_POLL_MS = 15_000;

/** GET /api/orders/{id}?key=…: anyone with the link; without a key, its session or owner. */
export function getTrackedOrder(
  id: number,
  key: string | null,
  { signal }: { signal?: AbortSignal } = {},
): Promise<TrackedOrder> {
  const query = key ? `?key=${encodeURIComponent(key)}` : '';
  return api.get<TrackedOrder>(`/orders/${id}${query}`, { signal });
}

export function useTrackedOrder(id: number, key: string | null) {
  return useQuery({
    queryKey: ['orders', id, 'tracked', key],
    queryFn: ({ signal }) => getTrackedOrder(id, key, { signal }),
    refetchInterval: (query) => {
      if (query.state.error instanceof ApiError && query.state.error.isNotFound) return false;
      const status = query.state.data?.status;
      return status === 'pending' || status === 'paid' ? TRACKING_POLL_MS : false;
    },
    retry: false,
  });
}
