import { useMutation, useQueryClient } from '@tanstack/react-query';

import { toast } from '@/components/ui/toast';
import { discordIdentityQueryKey } from '@/features/checkout/api/get-discord-identity';
import { api, errorMessage } from '@/lib/api-client';
import type { Schemas } from '@/types/api';

/** DELETE /api/discord/identity: forgets the linked account in the session. */
export function unlinkDiscord(): Promise<Schemas['DiscordUnlinked']> {
  return api.delete('/discord/identity');
}

export function useUnlinkDiscord() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: unlinkDiscord,
    onSuccess: () => {
      queryClient.setQueryData(discordIdentityQueryKey, null);
      toast.info('Discord unlinked');
    },
    onError: (error) => toast.error(errorMessage(error)),
  });
}
