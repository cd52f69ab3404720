import { useSyncExternalStore } from 'react';

import { isLive, subscribeLive } from '@/lib/live-events';

/** Whether the event stream is up (polling is off while it is). */
export function useLiveStatus(): boolean {
  return useSyncExternalStore(subscribeLive, isLive, () => false);
}
