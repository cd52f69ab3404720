import { useEffect } from 'react';

import { useHoldings } from '@/features/cart/api/get-holdings';
import { useCartStore } from '@/features/cart/stores/cart-store';

/**
 * Keeps what the buyer's orders hold of the drops in the cart's counts (`syncHoldings`): asks
 * the server while `enabled` (a drop is on show or in the cart), and takes every answer another
 * screen's ask brings.
 */
export function useSyncHoldings({ enabled }: { enabled: boolean }) {
  const { data: holdings } = useHoldings({ enabled });
  useEffect(() => {
    if (holdings) useCartStore.getState().syncHoldings(holdings);
  }, [holdings]);
}
