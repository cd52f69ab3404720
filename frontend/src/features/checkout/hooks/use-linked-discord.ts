import { useEffect } from 'react';

import { useDiscordIdentity } from '@/features/checkout/api/get-discord-identity';
import { useUnlinkDiscord } from '@/features/checkout/api/unlink-discord';
import { useDiscordLinkStore } from '@/features/checkout/stores/discord-link-store';

/**
 * The Discord account linked to this session: the server's answer is the truth and is saved;
 * the saved copy shows until it arrives. `unlink` forgets it on both sides.
 */
export function useLinkedDiscord() {
  const serverIdentity = useDiscordIdentity();
  const savedIdentity = useDiscordLinkStore((state) => state.identity);
  useEffect(() => {
    if (serverIdentity.isSuccess) useDiscordLinkStore.getState().setIdentity(serverIdentity.data);
  }, [serverIdentity.isSuccess, serverIdentity.data]);
  const identity = serverIdentity.isSuccess ? serverIdentity.data : savedIdentity;

  const unlinkMutation = useUnlinkDiscord();
  const unlink = () =>
    unlinkMutation.mutate(undefined, {
      onSuccess: () => useDiscordLinkStore.getState().setIdentity(null),
    });

  return { identity, unlink, unlinking: unlinkMutation.isPending };
}
