import { useMutation, useQueryClient } from '@tanstack/react-query';

import { discordIdentityQueryKey } from '@/features/checkout/api/get-discord-identity';
import type { DiscordIdentity } from '@/features/checkout/types';
import { api } from '@/lib/api-client';
import type { Schemas } from '@/types/api';

/** Starts linking: the server redirects to Discord (or to its dev sign-in page). */
export const DISCORD_AUTHORIZE_URL = '/api/discord/authorize';

/**
 * `state` is null when Discord sent none: the server takes a missing state (and answers it as a
 * mismatch) although its document calls the field required.
 */
export type DiscordAuthInput = Omit<Schemas['DiscordAuthRequest'], 'state'> & {
  state: string | null;
};

/**
 * POST /api/discord-auth: exchanges the code Discord returned for the account, which the
 * server keeps in the session. 400 no user id, 502 Discord unreachable, 422 state mismatch.
 */
export function exchangeDiscordCode(input: DiscordAuthInput): Promise<DiscordIdentity> {
  return api.post('/discord-auth', {
    body: input as Schemas['DiscordAuthRequest'],
  }) as Promise<DiscordIdentity>;
}

export function useExchangeDiscordCode() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: exchangeDiscordCode,
    onSuccess: (identity) => queryClient.setQueryData(discordIdentityQueryKey, identity),
  });
}
