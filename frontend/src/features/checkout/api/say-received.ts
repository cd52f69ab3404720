import { useMutation, useQueryClient } from '@tanstack/react-query';

import {
  orderKeyQuery,
  trackedOrderQueryKey,
  type TrackedOrder,
} from '@/features/checkout/api/get-tracked-order';
import { ApiError, api } from '@/lib/api-client';

/**
 * POST /api/orders/{id}/received?key=…: "I got my items". Answers the order as its page shows
 * it, with `delivery.received_at` set; 409 before the delivery or a second time, 429 after 10
 * calls in an hour (each with the message to show).
 */
export function sayReceived(id: number, key: string | null): Promise<TrackedOrder> {
  return api.post('/orders/{id}/received', {
    params: { path: { id }, query: orderKeyQuery(key) },
  }) as Promise<TrackedOrder>;
}

export function useSayReceived(id: number, key: string | null) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => sayReceived(id, key),
    onSuccess: (order) => queryClient.setQueryData(trackedOrderQueryKey(id, key), order),
    onError: (error) => {
      // a 409 means it was said already (another tab): show the order as it is
      if (error instanceof ApiError && error.status === 409) {
        void queryClient.invalidateQueries({ queryKey: trackedOrderQueryKey(id, key) });
      }
    },
  });
}
