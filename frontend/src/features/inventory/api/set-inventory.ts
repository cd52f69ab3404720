import { useMutation } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import type { InventoryProduct } from '@/features/inventory/types';

/** POST /api/admin/products/{id}/inventory: sets the stock; answers the product. */
export function setInventory<P extends InventoryProduct>({
  id,
  inventory,
}: {
  id: number;
  inventory: number;
}): Promise<P> {
  return api.post<P>(`/admin/products/${id}/inventory`, { inventory });
}

export function useSetInventory<P extends InventoryProduct>(onSaved: (product: P) => void) {
  return useMutation({
    mutationFn: (variables: { id: number; inventory: number }) => setInventory<P>(variables),
    onSuccess: onSaved,
  });
}
