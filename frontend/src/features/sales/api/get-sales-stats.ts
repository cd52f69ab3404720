import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

/** Item name -> period key ("2026-11-21", "2026-W47", "2026-11") -> units sold. */
export type SalesSeries = Record<string, Record<string, number>>;

/** GET /api/admin/sales-stats: every period key present, 0 when nothing sold. */
export type SalesStats = {
  /** The last 30 days. */
  daily: SalesSeries;
  /** The last 12 ISO weeks. */
  weekly: SalesSeries;
  /** The last 12 months. */
  monthly: SalesSeries;
  /** Item name -> units sold ever. */
  overall: Record<string, number>;
};

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
