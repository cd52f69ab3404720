import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import type { Schemas } from '@/types/api';

/** What this buyer already holds of one product with a cap per account. */
export type DropHolding = Schemas['DropHoldingResponse'];

/**
 * GET /api/checkout/holdings: for each capped product this session's buyer holds any of, the
 * units held, counted as checkout counts them (Discord account, shop account and browser,
 * bundles' parts included). Checkout stays the judge.
 */
export function getHoldings({ signal }: { signal?: AbortSignal } = {}): Promise<DropHolding[]> {
  return api.get('/checkout/holdings', { signal });
}

export function getHoldingsQueryOptions() {
  return queryOptions({
    queryKey: queryKeys.holdings,
    queryFn: ({ signal }) => getHoldings({ signal }),
  });
}

/** Asked only where a capped product is on show (`enabled`); an order event refetches it. */
export function useHoldings({ enabled }: { enabled: boolean }) {
  return useQuery({ ...getHoldingsQueryOptions(), enabled });
}
