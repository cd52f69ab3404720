import { queryOptions, useQuery } from '@tanstack/react-query';

import type { OrderMessage } from '@/features/order-messages/types';
import { api } from '@/lib/api-client';
import { pollWhileDown } from '@/lib/live-events';
import { queryKeys } from '@/lib/query-keys';

/** While the event stream is down, the thread is asked again this often. */
export const MESSAGES_POLL_MS = 10_000;

/** `?key=…` for the order's calls when the page was opened with the link's key. */
function keyQuery(key: string | null): { key?: string } {
  return key ? { key } : {};
}

/** GET /api/orders/{id}/messages?key=…: the buyer's side (its session, owner or link key). */
export function getOrderMessages(
  id: number,
  key: string | null,
  { signal }: { signal?: AbortSignal } = {},
): Promise<OrderMessage[]> {
  return api.get('/orders/{id}/messages', {
    params: { path: { id }, query: keyQuery(key) },
    signal,
  });
}

export function getOrderMessagesQueryOptions(id: number, key: string | null) {
  return queryOptions({
    queryKey: queryKeys.orderMessages.buyer(id, key),
    queryFn: ({ signal }) => getOrderMessages(id, key, { signal }),
  });
}

/** The order's thread for its buyer; `order_message` events add to it as they come. */
export function useOrderMessages(id: number, key: string | null) {
  return useQuery({
    ...getOrderMessagesQueryOptions(id, key),
    refetchInterval: pollWhileDown(MESSAGES_POLL_MS),
  });
}

/** GET /api/admin/orders/{id}/messages: the staff's side. */
export function getStaffOrderMessages(
  id: number,
  { signal }: { signal?: AbortSignal } = {},
): Promise<OrderMessage[]> {
  return api.get('/admin/orders/{id}/messages', { params: { path: { id } }, signal });
}

export function getStaffOrderMessagesQueryOptions(id: number) {
  return queryOptions({
    queryKey: queryKeys.orderMessages.staff(id),
    queryFn: ({ signal }) => getStaffOrderMessages(id, { signal }),
    meta: { userScoped: true },
  });
}

/** An order's thread on the staff queue card. */
export function useStaffOrderMessages(id: number) {
  return useQuery({
    ...getStaffOrderMessagesQueryOptions(id),
    refetchInterval: pollWhileDown(MESSAGES_POLL_MS),
  });
}
