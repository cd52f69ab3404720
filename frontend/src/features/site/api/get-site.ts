import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import type { Site } from '@/types/api';

/** Shop-wide settings from the server's configuration (name, reviews page, Discord, delivery). */
export function getSite({ signal }: { signal?: AbortSignal } = {}): Promise<Site> {
  return api.get('/site', { signal });
}

export function getSiteQueryOptions() {
  return queryOptions({
    queryKey: queryKeys.site,
    queryFn: ({ signal }) => getSite({ signal }),
    staleTime: Infinity,
  });
}

export function useSite() {
  return useQuery(getSiteQueryOptions());
}

/** The shop's Discord invite; null while unknown or when none is set. */
export function useDiscordInvite(): string | null {
  return useSite().data?.discord_invite_url ?? null;
}

/** The shop's delivery promise in minutes; null while unknown. */
export function useDeliveryMinutes(): number | null {
  return useSite().data?.delivery_minutes ?? null;
}
