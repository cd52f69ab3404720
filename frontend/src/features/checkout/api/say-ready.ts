import { useMutation, useQueryClient } from '@tanstack/react-query';

import {
  orderKeyQuery,
  trackedOrderQueryKey,
  type TrackedOrder,
} from '@/features/checkout/api/get-tracked-order';
import { ApiError, api } from '@/lib/api-client';

/**
 * POST /api/orders/{id}/ready?key=…: "I'm in the game". Answers the order as its page shows it,
 * with `delivery.buyer_ready_at` set; 409 when already said for this claim or the order no
 * longer waits, 429 after 10 calls in an hour (each with the message to show).
 */
export function sayReady(id: number, key: string | null): Promise<TrackedOrder> {
  return api.post('/orders/{id}/ready', {
    params: { path: { id }, query: orderKeyQuery(key) },
  }) as Promise<TrackedOrder>;
}

export function useSayReady(id: number, key: string | null) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => sayReady(id, key),
    onSuccess: (order) => queryClient.setQueryData(trackedOrderQueryKey(id, key), order),
    onError: (error) => {
      // a 409 means the order moved on (said already, released, delivered): show where it is
      if (error instanceof ApiError && error.status === 409) {
        void queryClient.invalidateQueries({ queryKey: trackedOrderQueryKey(id, key) });
      }
    },
  });
}
