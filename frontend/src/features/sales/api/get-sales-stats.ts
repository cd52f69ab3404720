import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { Schemas } from '@/types/api';

/** Item name -> period key ("2026-11-21", "2026-W47", "2026-11") -> units sold. */
export type SalesSeries = Record<string, Record<string, number>>;

/**
 * GET /api/admin/sales-stats: every period key present, 0 when nothing sold. `daily`: the last 30
 * days, `weekly`: the last 12 ISO weeks, `monthly`: the last 12 months, `overall`: item name ->
 * units sold ever.
 */
export type SalesStats = Schemas['SalesStats'];

export function getSalesStats({ signal }: { signal?: AbortSignal } = {}): Promise<SalesStats> {
  return api.get<SalesStats>('/admin/sales-stats', { signal });
}

export function getSalesStatsQueryOptions() {
  return queryOptions({
    queryKey: ['admin', 'sales-stats'],
    queryFn: ({ signal }) => getSalesStats({ signal }),
    // Fresh each time the dashboard opens; no polling while it is open.
    staleTime: 0,
    meta: { userScoped: true },
  });
}

export function useSalesStats({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...getSalesStatsQueryOptions(), enabled });
}
