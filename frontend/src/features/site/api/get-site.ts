import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { Site } from '@/types/api';

/** Shop-wide settings from the server's configuration (name, external reviews page). */
export function getSite({ signal }: { signal?: AbortSignal } = {}): Promise<Site> {
  return api.get<Site>('/site', { signal });
}

export function getSiteQueryOptions() {
  return queryOptions({
    queryKey: ['site'],
    queryFn: ({ signal }) => getSite({ signal }),
    staleTime: Infinity,
  });
}

export function useSite() {
  return useQuery(getSiteQueryOptions());
}
