import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useSyncExternalStore } from 'react';

import { useUser } from '@/features/auth/hooks/use-user';
import { getChatSessionId } from '@/features/chat/utils/chat-session-id';
import { connectLiveEvents, isLive, subscribeLive } from '@/lib/live-events';

/**
 * Keeps the app's one event stream open (mounted once, in the layout). It is reopened when the
 * account changes: a staff member's stream carries every live chat and the delivery queue.
 */
export function useLiveEvents(): void {
  const queryClient = useQueryClient();
  const { user, isStaff, isChecking } = useUser();
  const userId = user?.id ?? null;
  useEffect(() => {
    if (isChecking) return undefined;
    return connectLiveEvents({ queryClient, staff: isStaff, chatSession: getChatSessionId() });
    // userId: another account gets its own stream (its orders, its role)
  }, [queryClient, isStaff, isChecking, userId]);
}

/** Whether the event stream is up (polling is off while it is). */
export function useLiveStatus(): boolean {
  return useSyncExternalStore(subscribeLive, isLive, () => false);
}
