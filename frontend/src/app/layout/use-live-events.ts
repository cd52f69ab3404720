import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useSyncExternalStore } from 'react';

import { toast } from '@/components/ui/toast';
import { useUser } from '@/features/auth/hooks/use-user';
import { getChatSessionId } from '@/features/chat/utils/chat-session-id';
import { connectLiveEvents, subscribeWatchedOrder, watchedOrder } from '@/lib/live-events';

/** What staff read once when the server refuses their stream (their screens poll meanwhile). */
export const STREAM_REFUSED =
  'Live updates are paused: too many open connections. Your lists still refresh every few seconds, and we keep trying.';

/**
 * Keeps the app's one event stream open (mounted once, in the layout). It is reopened when the
 * account changes: a staff member's stream carries every live chat and the delivery queue; and
 * when a page starts or stops watching an order by its link's key.
 */
export function useLiveEvents(): void {
  const queryClient = useQueryClient();
  const { user, isStaff, isChecking } = useUser();
  const userId = user?.id ?? null;
  const order = useSyncExternalStore(subscribeWatchedOrder, watchedOrder, () => null);
  useEffect(() => {
    if (isChecking) return undefined;
    return connectLiveEvents({
      queryClient,
      staff: isStaff,
      chatSession: getChatSessionId(),
      order,
      // staff work from the live lists; a shopper's screens poll without a word
      onRefused: isStaff ? () => toast.info(STREAM_REFUSED) : undefined,
    });
    // userId: another account gets its own stream (its orders, its role)
  }, [queryClient, isStaff, isChecking, userId, order]);
}
