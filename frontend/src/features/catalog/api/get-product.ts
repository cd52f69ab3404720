import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { Product } from '@/types/api';

/** One product; 404 {"message":"Product not found."} when it does not exist or is archived. */
export function getProduct(id: number, { signal }: { signal?: AbortSignal } = {}) {
  return api.get<Product>(`/products/${id}`, { signal });
}

export function getProductQueryOptions(id: number) {
  return queryOptions({
    queryKey: ['products', id],
    queryFn: ({ signal }) => getProduct(id, { signal }),
  });
}

export function useProduct(id: number) {
  return useQuery(getProductQueryOptions(id));
}
