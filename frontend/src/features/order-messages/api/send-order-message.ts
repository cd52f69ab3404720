import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';

import type { OrderMessage } from '@/features/order-messages/types';
import { api } from '@/lib/api-client';
import { withMessage } from '@/lib/live-events';
import { queryKeys } from '@/lib/query-keys';

/** POST /api/orders/{id}/messages?key=… `{text}`: 201 with the message kept. */
export function sendOrderMessage(id: number, key: string | null, text: string) {
  return api.post('/orders/{id}/messages', {
    params: { path: { id }, query: key ? { key } : {} },
    body: { text },
  }) as Promise<OrderMessage>;
}

/** POST /api/admin/orders/{id}/messages `{text}` (staff). */
export function sendStaffOrderMessage(id: number, text: string) {
  return api.post('/admin/orders/{id}/messages', {
    params: { path: { id } },
    body: { text },
  }) as Promise<OrderMessage>;
}

/**
 * Sends a message and adds it to the thread at once (the `order_message` event adds it too; the
 * id keeps it once). Errors carry the server's words: 409 closed, 422 empty or too long, 429 wait.
 */
function useSend(queryKey: QueryKey, send: (text: string) => Promise<OrderMessage>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: send,
    onSuccess: (message) =>
      queryClient.setQueryData<OrderMessage[]>(queryKey, (thread) =>
        withMessage(thread ?? [], message),
      ),
  });
}

export function useSendOrderMessage(id: number, key: string | null) {
  return useSend(queryKeys.orderMessages.buyer(id, key), (text) => sendOrderMessage(id, key, text));
}

export function useSendStaffOrderMessage(id: number) {
  return useSend(queryKeys.orderMessages.staff(id), (text) => sendStaffOrderMessage(id, text));
}
