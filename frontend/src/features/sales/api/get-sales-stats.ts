import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import type { Schemas } from '@/types/api';

/** Item name -> period key ("2026-11-21", "2026-W47", "2026-11") -> units sold. */
export type SalesSeries = Record<string, Record<string, number>>;

/** The median and 90th percentile of one step's durations, in seconds; null without data. */
export type StepTimes = Schemas['SpreadJson'];

/** The three measured steps of a delivery, each with its median and p90. */
export type DeliverySteps = Pick<
  Schemas['DeliveryDay'],
  'paid_to_claimed' | 'claimed_to_delivered' | 'paid_to_delivered'
>;

/** The promise ("usually under N minutes") and the last 30 days' times, per day and per staff. */
export type DeliveryStats = Schemas['DeliveryStats'];

/** Disputes by outcome, the money lost, and the last 30 days' rate against the warning line. */
export type DisputeStats = Schemas['DisputeStats'];

/**
 * Revenue in the base currency (`currency`): `daily` per day of the daily chart, `overall` ever;
 * each paid or delivered order at its own rate, rounded to the cent by the server.
 */
export type RevenueStats = Schemas['RevenueStats'];

/**
 * GET /api/admin/sales-stats: every period key present, 0 when nothing sold. `daily`: the last 30
 * days, `weekly`: the last 12 ISO weeks, `monthly`: the last 12 months, `overall`: item name ->
 * units sold ever; `delivery`: how long deliveries take; `revenue`: what the orders brought in.
 */
export type SalesStats = Schemas['SalesStats'];

export function getSalesStats({ signal }: { signal?: AbortSignal } = {}): Promise<SalesStats> {
  return api.get('/admin/sales-stats', { signal });
}

export function getSalesStatsQueryOptions() {
  return queryOptions({
    queryKey: queryKeys.admin.salesStats,
    queryFn: ({ signal }) => getSalesStats({ signal }),
    // Fresh each time the dashboard opens; no polling while it is open.
    staleTime: 0,
    meta: { userScoped: true },
  });
}

export function useSalesStats({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...getSalesStatsQueryOptions(), enabled });
}
