import { useMutation, useQueryClient } from '@tanstack/react-query';

import {
  orderKeyQuery,
  trackedOrderQueryKey,
  type TrackedOrder,
} from '@/features/checkout/api/get-tracked-order';
import { ApiError, api } from '@/lib/api-client';

/**
 * A buyer's step on the order's page, with the key of the link when the page had one:
 * `ready` (POST /api/orders/{id}/ready, "I'm in the game": `delivery.buyer_ready_at` set; 409
 * when already said for this claim or the order no longer waits) or `received` (POST
 * /api/orders/{id}/received, "I got my items": `delivery.received_at` set; 409 before the
 * delivery or a second time). Each answers the order as its page shows it; 429 after 10 calls
 * in an hour (each error with the message to show).
 */
export type BuyerStep = 'ready' | 'received';

export function sayStep(id: number, key: string | null, step: BuyerStep): Promise<TrackedOrder> {
  const options = { params: { path: { id }, query: orderKeyQuery(key) } };
  return (
    step === 'ready'
      ? api.post('/orders/{id}/ready', options)
      : api.post('/orders/{id}/received', options)
  ) as Promise<TrackedOrder>;
}

export function useBuyerStep(id: number, key: string | null, step: BuyerStep) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => sayStep(id, key, step),
    onSuccess: (order) => queryClient.setQueryData(trackedOrderQueryKey(id, key), order),
    onError: (error) => {
      // a 409 means the order moved on (said already, released, delivered): show where it is
      if (error instanceof ApiError && error.status === 409) {
        void queryClient.invalidateQueries({ queryKey: trackedOrderQueryKey(id, key) });
      }
    },
  });
}
