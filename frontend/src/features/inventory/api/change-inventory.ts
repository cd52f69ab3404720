import { useMutation } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import type { InventoryProduct } from '@/features/inventory/types';

/** Spec §9: one per click. */
export const INVENTORY_STEP = 1;

/** POST /api/admin/products/{id}/change: plus or minus, atomic on the server, never below 0. */
export function changeInventory<P extends InventoryProduct>({
  id,
  type,
}: {
  id: number;
  type: 'plus' | 'minus';
}): Promise<P> {
  return api.post<P>(`/admin/products/${id}/change`, { type, inventory: INVENTORY_STEP });
}

export function useChangeInventory<P extends InventoryProduct>(onSaved: (product: P) => void) {
  return useMutation({
    mutationFn: (variables: { id: number; type: 'plus' | 'minus' }) =>
      changeInventory<P>(variables),
    onSuccess: onSaved,
  });
}
