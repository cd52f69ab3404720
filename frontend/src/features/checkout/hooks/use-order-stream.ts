import { useEffect } from 'react';

import { watchOrder } from '@/lib/live-events';

/**
 * Puts the order's link on the app's event stream while the page shows it, so a claim, the
 * private server link or a delivery shows at once on any device holding the link. Only once the
 * key has opened the order: a wrong key would only get the stream refused.
 */
export function useOrderStream(id: number, key: string | null, opened: boolean): void {
  useEffect(() => {
    if (!key || !opened) return undefined;
    return watchOrder({ id, key });
  }, [id, key, opened]);
}
