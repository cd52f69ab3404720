import type { Order } from '@/features/checkout/types';
import { api } from '@/lib/api-client';

/** POST /api/orders/{id}/cancel: a pending order is cancelled and its stock released; 409 otherwise. */
export function cancelOrder(id: number): Promise<Order> {
  return api.post('/orders/{id}/cancel', { params: { path: { id } } }) as Promise<Order>;
}
