import { queryOptions, useQuery } from '@tanstack/react-query';

import type { DiscordIdentity } from '@/features/checkout/types';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export const discordIdentityQueryKey = queryKeys.discordIdentity;

/** GET /api/discord/identity: the Discord account linked to this session, or null. */
export async function getDiscordIdentity({
  signal,
}: { signal?: AbortSignal } = {}): Promise<DiscordIdentity | null> {
  const { identity } = await api.get('/discord/identity', { signal });
  return (identity ?? null) as DiscordIdentity | null;
}

export function getDiscordIdentityQueryOptions() {
  return queryOptions({
    queryKey: discordIdentityQueryKey,
    queryFn: ({ signal }) => getDiscordIdentity({ signal }),
    // Asked again each time the checkout opens: the session may have changed in another tab.
    staleTime: 0,
  });
}

export function useDiscordIdentity() {
  return useQuery(getDiscordIdentityQueryOptions());
}
