import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useSyncExternalStore } from 'react';

import { useUser } from '@/features/auth/hooks/use-user';
import { getChatSessionId } from '@/features/chat/utils/chat-session-id';
import {
  connectLiveEvents,
  isLive,
  subscribeLive,
  subscribeWatchedOrder,
  watchedOrder,
} from '@/lib/live-events';

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
    });
    // userId: another account gets its own stream (its orders, its role)
  }, [queryClient, isStaff, isChecking, userId, order]);
}

/** Whether the event stream is up (polling is off while it is). */
export function useLiveStatus(): boolean {
  return useSyncExternalStore(subscribeLive, isLive, () => false);
}
