import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

/** GET /api/admin/products/standalone: the bundles' ids, which the inventory page leaves out. */
export function getStandaloneIds({ signal }: { signal?: AbortSignal } = {}): Promise<number[]> {
  return api.get('/admin/products/standalone', { signal });
}

export function getStandaloneIdsQueryOptions() {
  return queryOptions({
    queryKey: queryKeys.admin.standaloneIds,
    queryFn: ({ signal }) => getStandaloneIds({ signal }),
    meta: { userScoped: true },
  });
}

export function useStandaloneIds({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...getStandaloneIdsQueryOptions(), enabled });
}
