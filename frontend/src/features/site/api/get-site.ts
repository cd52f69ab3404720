import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { Site } from '@/types/api';

/**
 * Issue 21's fields of `GET /api/site`, written here by hand until `just api-types` brings them
 * into api.gen.ts. API-TYPES-PENDING: then `SiteSettings` becomes `Site` and this goes.
 */
type HandoffSiteFields = {
  /** The shop's Discord invite (https discord.gg/… or discord.com/invite/…); null: none set. */
  discord_invite_url: string | null;
  /** The shop's promise N in "usually under N minutes" (a whole number). */
  delivery_minutes: number;
};

export type SiteSettings = Site & HandoffSiteFields;

/** Shop-wide settings from the server's configuration (name, reviews page, Discord, delivery). */
export function getSite({ signal }: { signal?: AbortSignal } = {}): Promise<SiteSettings> {
  return api.get<SiteSettings>('/site', { signal });
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

/** The shop's Discord invite; null while unknown or when none is set. */
export function useDiscordInvite(): string | null {
  return useSite().data?.discord_invite_url ?? null;
}

/** The shop's delivery promise in minutes; null while unknown. */
export function useDeliveryMinutes(): number | null {
  return useSite().data?.delivery_minutes ?? null;
}
