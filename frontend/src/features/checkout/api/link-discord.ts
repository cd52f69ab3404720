import { useMutation, useQueryClient } from '@tanstack/react-query';

import { discordIdentityQueryKey } from '@/features/checkout/api/get-discord-identity';
import type { DiscordIdentity } from '@/features/checkout/types';
import { api } from '@/lib/api-client';

/** Starts linking: the server redirects to Discord (or to its dev sign-in page). */
export const DISCORD_AUTHORIZE_URL = '/api/discord/authorize';

export type DiscordAuthInput = { code: string; state: string | null };

/**
 * POST /api/discord-auth: exchanges the code Discord returned for the account, which the
 * server keeps in the session. 400 no user id, 502 Discord unreachable, 422 state mismatch.
 */
export function exchangeDiscordCode(input: DiscordAuthInput): Promise<DiscordIdentity> {
  return api.post<DiscordIdentity>('/discord-auth', input);
}

export function useExchangeDiscordCode() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: exchangeDiscordCode,
    onSuccess: (identity) => queryClient.setQueryData(discordIdentityQueryKey, identity),
  });
}
