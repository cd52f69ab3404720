import { queryOptions, useQuery } from '@tanstack/react-query';

import type { Order } from '@/features/checkout/types';
import { api, ApiError } from '@/lib/api-client';
import { isLive } from '@/lib/live-events';
import { queryKeys } from '@/lib/query-keys';

/** How often /success asks for the status until the payment provider has confirmed it. */
export const ORDER_POLL_MS = 2000;

/** GET /api/orders/{id}: for the session that created the order or its logged-in owner. */
export function getOrder(id: number, { signal }: { signal?: AbortSignal } = {}): Promise<Order> {
  return api.get('/orders/{id}', { params: { path: { id } }, signal }) as Promise<Order>;
}

export function getOrderQueryOptions(id: number) {
  return queryOptions({
    queryKey: queryKeys.orders.order(id),
    queryFn: ({ signal }) => getOrder(id, { signal }),
    staleTime: 0,
  });
}

/** The order, asked again every 2 s while it is still pending. */
export function useOrderStatus(id: number) {
  return useQuery({
    ...getOrderQueryOptions(id),
    refetchInterval: (query) => {
      // A 404 will not change (not this visitor's order); a passing failure is asked again.
      if (query.state.error instanceof ApiError && query.state.error.isNotFound) return false;
      // while the event stream is up, an order event refetches it
      if (isLive()) return false;
      const status = query.state.data?.status;
      return status === undefined || status === 'pending' ? ORDER_POLL_MS : false;
    },
    retry: false,
  });
}
