import { useMutation } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { reportStockFailure, type SavedProduct } from '@/features/inventory/types';

/** Spec §9: one per click. */
export const INVENTORY_STEP = 1;

/** POST /api/admin/products/{id}/change: plus or minus, atomic on the server, never below 0. */
export function changeInventory({
  id,
  type,
}: {
  id: number;
  type: 'plus' | 'minus';
}): Promise<SavedProduct> {
  return api.post('/admin/products/{id}/change', {
    params: { path: { id } },
    body: { type, inventory: INVENTORY_STEP },
  });
}

export function useChangeInventory(onSaved: (product: SavedProduct) => void) {
  return useMutation({
    mutationFn: (variables: { id: number; type: 'plus' | 'minus' }) => changeInventory(variables),
    onSuccess: onSaved,
    onError: reportStockFailure('Changing the stock'),
  });
}
