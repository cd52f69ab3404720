import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import {
  putAdminProductInCache,
  refreshStorefrontProducts,
} from '@/features/admin-products/api/get-admin-products';
import type { AdminProduct } from '@/features/admin-products/types';

/** POST /api/admin/products (multipart, see productFormData). 201 with the product; 422 per field. */
export function createProduct(body: FormData): Promise<AdminProduct> {
  return api.post('/admin/products', { body });
}

export function useCreateProduct() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createProduct,
    onSuccess: (product) => {
      putAdminProductInCache(queryClient, product);
      void refreshStorefrontProducts(queryClient);
    },
  });
}
