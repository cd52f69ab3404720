import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import {
  putAdminProductInCache,
  refreshStorefrontProducts,
} from '@/features/admin-products/api/get-admin-products';
import type { AdminProduct } from '@/features/admin-products/types';

/**
 * POST /api/admin/products/{id} with `_method=PUT` in the multipart body (see productFormData),
 * as the spec's client sends it. Without a new image the old one stays.
 */
export function updateProduct({ id, body }: { id: number; body: FormData }): Promise<AdminProduct> {
  return api.post('/admin/products/{id}', { params: { path: { id } }, body });
}

export function useUpdateProduct() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateProduct,
    onSuccess: (product) => {
      putAdminProductInCache(queryClient, product);
      void refreshStorefrontProducts(queryClient);
    },
  });
}
