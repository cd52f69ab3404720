import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';

import { pollWhileDown } from '@/lib/live-events';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

import type { AdminProduct } from '@/features/admin-products/types';

export const adminProductsQueryKey = queryKeys.admin.products;

/** GET /api/admin/products: archived ones included, in storefront order. */
export function getAdminProducts({ signal }: { signal?: AbortSignal } = {}): Promise<
  AdminProduct[]
> {
  return api.get('/admin/products', { cache: 'no-cache', signal });
}

export function getAdminProductsQueryOptions() {
  return queryOptions({
    queryKey: adminProductsQueryKey,
    queryFn: ({ signal }) => getAdminProducts({ signal }),
    // Drop it when the session changes (features/auth's USER_SCOPED marker).
    meta: { userScoped: true },
  });
}

/** Spec §9: the admin product list refreshes every 5 s. */
export const PRODUCTS_POLL_MS = 5000;

type UseAdminProductsOptions = {
  /** Poll the list (docs/product.md, Constants and limits: 5 s); false pauses it, e.g. while dragging or editing. */
  refetchInterval?: number | false;
  enabled?: boolean;
};

export function useAdminProducts({
  refetchInterval,
  enabled = true,
}: UseAdminProductsOptions = {}) {
  return useQuery({
    ...getAdminProductsQueryOptions(),
    // polled only while the event stream is down (a product event refetches the list)
    refetchInterval: refetchInterval ? pollWhileDown(refetchInterval) : false,
    enabled,
  });
}

/** Puts a product the server just answered into the cached list, in place (or appends it). */
export function putAdminProductInCache(queryClient: QueryClient, product: AdminProduct): void {
  queryClient.setQueryData<AdminProduct[]>(adminProductsQueryKey, (current) => {
    if (!current) return current;
    const index = current.findIndex((item) => item.id === product.id);
    if (index === -1) return [...current, product];
    return current.map((item) => (item.id === product.id ? product : item));
  });
}

/** The storefront's list changes with every admin write: make it ask again. */
export function refreshStorefrontProducts(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: queryKeys.products });
}
