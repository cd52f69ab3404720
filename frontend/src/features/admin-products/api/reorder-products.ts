import { useMutation, useQueryClient } from '@tanstack/react-query';

import { toast } from '@/components/ui/toast';
import { api, errorMessage } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
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

/** The admin's saves of the order: one scope, so they reach the server one after another. */
const REORDER_KEY = queryKeys.admin.productOrderSaves;

/**
 * Shows the new order at once and saves it; a refused save puts the old order back.
 * `mutate(products)` takes the whole list in its new order.
 *
 * Each save carries the whole list, so the last one the server applies is the order that stays.
 * Two quick moves ("down one place", then "to first place") must therefore reach the server in
 * the order they were made: the saves share a scope (react-query runs them one after another),
 * each shows its order at once (`onMutate` does not wait for its turn), and the list is read
 * back from the server only after the last save of a run settled.
 */
export function useReorderProducts() {
  const queryClient = useQueryClient();
  /** From a save's callbacks: whether it is the last save still running (it counts itself). */
  const lastSave = () => queryClient.isMutating({ mutationKey: REORDER_KEY }) <= 1;
  return useMutation({
    mutationKey: REORDER_KEY,
    scope: { id: REORDER_KEY.join('/') },
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
      // a later save is shown and waits for its turn: the list is read back after it
      if (context?.previous && lastSave()) {
        queryClient.setQueryData(adminProductsQueryKey, context.previous);
      }
      console.error('Saving the order failed.', error);
      toast.error(`The new order was not saved: ${errorMessage(error)}`);
    },
    onSettled: () => {
      // read back meanwhile, the list would show this save's order over the later one's
      if (!lastSave()) return;
      void queryClient.invalidateQueries({ queryKey: adminProductsQueryKey });
      void refreshStorefrontProducts(queryClient);
    },
  });
}
