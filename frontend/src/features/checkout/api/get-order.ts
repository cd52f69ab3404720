import type { Order } from '@/features/checkout/types';
import { api } from '@/lib/api-client';

/** GET /api/orders/{id}: for the session that created the order or its logged-in owner. */
export function getOrder(id: number, { signal }: { signal?: AbortSignal } = {}): Promise<Order> {
  return api.get('/orders/{id}', { params: { path: { id } }, signal }) as Promise<Order>;
}
