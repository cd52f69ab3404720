import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

/** The ids of the products a bundle is made of. */
export function getRelatedIds(id: number, { signal }: { signal?: AbortSignal } = {}) {
  return api.get<number[]>(`/products/${id}/related-ids`, { signal });
}

export function getRelatedIdsQueryOptions(id: number) {
  return queryOptions({
    queryKey: ['products', id, 'related-ids'],
    queryFn: ({ signal }) => getRelatedIds(id, { signal }),
  });
}

export function useRelatedIds(id: number) {
  return useQuery(getRelatedIdsQueryOptions(id));
}
