import { queryOptions, useQuery } from '@tanstack/react-query';

import { pollWhileDown } from '@/lib/live-events';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import type { Product } from '@/types/api';

/** Already ordered by the server (sort_order, then price, then weight); archived products left out. */
export function getProducts({ signal }: { signal?: AbortSignal } = {}): Promise<Product[]> {
  // no-cache: revalidate with the server's ETag every time, so a 304 costs almost nothing.
  return api.get('/products', { cache: 'no-cache', signal });
}

export function getProductsQueryOptions() {
  return queryOptions({
    queryKey: queryKeys.products,
    queryFn: ({ signal }) => getProducts({ signal }),
  });
}

type UseProductsOptions = {
  /** Poll the list, e.g. every 5 s on the home page so stock badges stay fresh. */
  refetchInterval?: number;
};

/** Polls only while the event stream is down (a product event refetches the list). */
export function useProducts({ refetchInterval }: UseProductsOptions = {}) {
  return useQuery({
    ...getProductsQueryOptions(),
    refetchInterval: refetchInterval ? pollWhileDown(refetchInterval) : undefined,
  });
}
