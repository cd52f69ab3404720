import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';

import { isLive, pollWhileDown } from '@/lib/live-events';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

import type { AdminOrder, OrdersFilter } from '@/features/admin-orders/types';

export const adminOrdersQueryKey = queryKeys.admin.orders.all;

/** GET /api/admin/orders?filter=…: paid ones oldest first. */
export function getAdminOrders(
  filter: OrdersFilter,
  { signal }: { signal?: AbortSignal } = {},
): Promise<AdminOrder[]> {
  return api.get('/admin/orders', { params: { query: { filter } }, signal });
}

export function getAdminOrdersQueryOptions(filter: OrdersFilter) {
  return queryOptions({
    queryKey: queryKeys.admin.orders.filtered(filter),
    queryFn: ({ signal }) => getAdminOrders(filter, { signal }),
    meta: { userScoped: true },
  });
}

/** Staff poll the queue every 10 s so new paid orders and others' claims show up. */
export const ORDERS_POLL_MS = 10_000;

/**
 * `minutes_waiting`, `ready_minutes` and `no_show` move with the clock, and no event says so: while
 * the stream is up the queue is still asked again this often, so a buyer who stopped answering
 * shows as a no-show and the waits stay true.
 */
export const ORDERS_CLOCK_MS = 60_000;

const pollQueueWhileDown = pollWhileDown(ORDERS_POLL_MS);

export function useAdminOrders(filter: OrdersFilter) {
  // polled only while the event stream is down (an order event refetches the queue)
  return useQuery({
    ...getAdminOrdersQueryOptions(filter),
    refetchInterval: () => pollQueueWhileDown() || (isLive() ? ORDERS_CLOCK_MS : false),
  });
}

/** After an action: the answered order in place in every cached filter, then ask again. */
export function putOrderInCache(queryClient: QueryClient, order: AdminOrder): void {
  queryClient.setQueriesData<AdminOrder[]>({ queryKey: adminOrdersQueryKey }, (current) =>
    current?.map((item) => (item.id === order.id ? order : item)),
  );
  void queryClient.invalidateQueries({ queryKey: adminOrdersQueryKey });
}
