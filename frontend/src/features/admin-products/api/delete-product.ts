import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { Schemas } from '@/types/api';

import {
  adminProductsQueryKey,
  refreshStorefrontProducts,
} from '@/features/admin-products/api/get-admin-products';
import type { AdminProduct } from '@/features/admin-products/types';

/** A product with orders is archived (kept for orders and statistics); one without is deleted. */
export type DeleteProductResult = Schemas['ProductRemoved'];

/** DELETE /api/admin/products/{id} */
export function deleteProduct(id: number): Promise<DeleteProductResult> {
  return api.delete('/admin/products/{id}', { params: { path: { id } } });
}

export function useDeleteProduct() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteProduct,
    onSuccess: (result, id) => {
      queryClient.setQueryData<AdminProduct[]>(adminProductsQueryKey, (current) =>
        current
          ?.map((product) => (product.id === id ? { ...product, archived: true } : product))
          .filter((product) => product.id !== id || result.archived),
      );
      void refreshStorefrontProducts(queryClient);
    },
  });
}
