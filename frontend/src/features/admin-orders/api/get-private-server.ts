import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

import type { PrivateServer } from '@/features/admin-orders/types';

export const privateServerQueryKey = queryKeys.admin.privateServer;

/** GET /api/admin/private-server: the signed-in member of staff's link, or null. */
export function getPrivateServer({
  signal,
}: { signal?: AbortSignal } = {}): Promise<PrivateServer> {
  return api.get('/admin/private-server', { signal });
}

export function getPrivateServerQueryOptions() {
  return queryOptions({
    queryKey: privateServerQueryKey,
    queryFn: ({ signal }) => getPrivateServer({ signal }),
    meta: { userScoped: true },
  });
}

export function usePrivateServer() {
  return useQuery(getPrivateServerQueryOptions());
}
