import { useMutation, useQueryClient } from '@tanstack/react-query';

import { toast } from '@/components/ui/toast';
import { api, errorMessage } from '@/lib/api-client';
import type { Schemas } from '@/types/api';

import {
  adminProductsQueryKey,
  refreshStorefrontProducts,
} from '@/features/admin-products/api/get-admin-products';
import type { AdminProduct } from '@/features/admin-products/types';
import { reorderPayload } from '@/features/admin-products/utils/reorder';

/** POST /api/admin/products/reorder: every product with its new position index. */
export function reorderProducts(
  products: ReadonlyArray<{ id: number }>,
): Promise<Schemas['Message']> {
  return api.post('/admin/products/reorder', { body: reorderPayload(products) });
}

/**
 * Shows the new order at once and saves it; a refused save puts the old order back.
 * `mutate(products)` takes the whole list in its new order.
 */
export function useReorderProducts() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (products: AdminProduct[]) => reorderProducts(products),
    onMutate: async (products) => {
      await queryClient.cancelQueries({ queryKey: adminProductsQueryKey });
      const previous = queryClient.getQueryData<AdminProduct[]>(adminProductsQueryKey);
      queryClient.setQueryData<AdminProduct[]>(
        adminProductsQueryKey,
        products.map((product, index) => ({ ...product, sort_order: index })),
      );
      return { previous };
    },
    onSuccess: (answer) => toast.success(answer.message || 'Product order saved.'),
    onError: (error, _products, context) => {
      if (context?.previous) queryClient.setQueryData(adminProductsQueryKey, context.previous);
      console.error('Saving the order failed.', error);
      toast.error(`The new order was not saved: ${errorMessage(error)}`);
    },
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: adminProductsQueryKey });
      void refreshStorefrontProducts(queryClient);
    },
  });
}
