import { useMutation } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { reportStockFailure, type SavedProduct } from '@/features/inventory/types';

/** POST /api/admin/products/{id}/inventory: sets the stock; answers the product. */
export function setInventory({
  id,
  inventory,
}: {
  id: number;
  inventory: number;
}): Promise<SavedProduct> {
  return api.post('/admin/products/{id}/inventory', {
    params: { path: { id } },
    body: { inventory },
  });
}

export function useSetInventory(onSaved: (product: SavedProduct) => void) {
  return useMutation({
    mutationFn: (variables: { id: number; inventory: number }) => setInventory(variables),
    onSuccess: onSaved,
    onError: reportStockFailure('Saving the stock'),
  });
}
