import { useMutation, useQueryClient } from '@tanstack/react-query';

import { discordIdentityQueryKey } from '@/features/checkout/api/get-discord-identity';
import { api } from '@/lib/api-client';
import type { Schemas } from '@/types/api';

/** DELETE /api/discord/identity: forgets the linked account in the session. */
export function unlinkDiscord(): Promise<Schemas['DiscordUnlinked']> {
  return api.delete('/discord/identity');
}

export function useUnlinkDiscord() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: unlinkDiscord,
    onSuccess: () => queryClient.setQueryData(discordIdentityQueryKey, null),
  });
}
