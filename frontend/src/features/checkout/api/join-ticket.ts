import { useMutation, useQueryClient } from '@tanstack/react-query';

import { toast } from '@/components/ui/toast';
import {
  orderKeyQuery,
  trackedOrderQueryKey,
  type TrackedOrder,
} from '@/features/checkout/api/get-tracked-order';
import { ApiError, api } from '@/lib/api-client';

/**
 * POST /api/orders/{id}/ticket/join?key=…: "I joined, add me to my ticket". Tries again to add
 * the buyer to the order's Discord ticket and answers the order; its `delivery.ticket_problem`
 * says whether it worked. 409 when there is no problem to fix or tickets are not set up.
 */
export function joinTicket(id: number, key: string | null): Promise<TrackedOrder> {
  return api.post('/orders/{id}/ticket/join', {
    params: { path: { id }, query: orderKeyQuery(key) },
  }) as Promise<TrackedOrder>;
}

export function useJoinTicket(id: number, key: string | null) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => joinTicket(id, key),
    onSuccess: (order) => {
      queryClient.setQueryData(trackedOrderQueryKey(id, key), order);
      if (order.delivery.ticket_problem === null) toast.success('You are in your Discord ticket.');
    },
    onError: (error) => {
      if (error instanceof ApiError && error.status === 409) {
        void queryClient.invalidateQueries({ queryKey: trackedOrderQueryKey(id, key) });
      }
    },
  });
}
