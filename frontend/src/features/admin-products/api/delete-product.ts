import { useMutation, useQueryClient } from '@tanstack/react-query';

import { toast } from '@/components/ui/toast';
import { api, ApiError } from '@/lib/api-client';
import type { Schemas } from '@/types/api';

import {
  adminProductsQueryKey,
  refreshStorefrontProducts,
} from '@/features/admin-products/api/get-admin-products';
import { PRODUCT_NOT_FOUND, type AdminProduct } from '@/features/admin-products/types';

/** A product with orders is archived (kept for orders and statistics); one without is deleted. */
export type DeleteProductResult = Schemas['ProductRemoved'];

/** DELETE /api/admin/products/{id} */
export function deleteProduct(id: number): Promise<DeleteProductResult> {
  return api.delete('/admin/products/{id}', { params: { path: { id } } });
}

export const DELETE_FAILED = 'Failed to delete product.';

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
      toast.success(result.message);
    },
    onError: (error) => {
      console.error('Deleting the product failed.', error);
      toast.error(
        error instanceof ApiError && error.isNotFound ? PRODUCT_NOT_FOUND : DELETE_FAILED,
      );
    },
  });
}
