import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { Schemas } from '@/types/api';

/** Item name -> period key ("2026-11-21", "2026-W47", "2026-11") -> units sold. */
export type SalesSeries = Record<string, Record<string, number>>;

/**
 * PENDING API TYPES (issue 21): `delivery` of GET /api/admin/sales-stats, which the backend is
 * adding now. Once `just api-types` generates it, `SalesStats` below becomes
 * `Schemas['SalesStats']` again and these become aliases of the generated schemas.
 */
/** The median and 90th percentile of one step's durations, in seconds; null without data. */
export type StepTimes = { median_seconds: number | null; p90_seconds: number | null };

/** The three measured steps of a delivery, each with its median and p90. */
export type DeliverySteps = {
  paid_to_claimed: StepTimes;
  claimed_to_delivered: StepTimes;
  paid_to_delivered: StepTimes;
};

export type DeliveryDay = DeliverySteps & { date: string; delivered: number };

export type DeliveryByStaff = DeliverySteps & { staff_name: string; delivered: number };

export type DeliveryStats = {
  /** The shop's promise, "usually under N minutes". */
  estimate_minutes: number;
  /** The last 30 days with deliveries, oldest first. */
  by_day: DeliveryDay[];
  by_staff: DeliveryByStaff[];
};

/**
 * GET /api/admin/sales-stats: every period key present, 0 when nothing sold. `daily`: the last 30
 * days, `weekly`: the last 12 ISO weeks, `monthly`: the last 12 months, `overall`: item name ->
 * units sold ever; `delivery`: how long deliveries take.
 */
export type SalesStats = Schemas['SalesStats'] & { delivery: DeliveryStats };

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
