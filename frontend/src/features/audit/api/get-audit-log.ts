import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

import type { AuditFilters, AuditPage, AuditQuery } from '@/features/audit/types';

/** A local day (YYYY-MM-DD) plus `days`, as the instant its local midnight is (RFC 3339, UTC). */
export function localMidnight(day: string, days = 0): string | null {
  const [year, month, date] = day.split('-').map(Number);
  if (!year || !month || !date) return null;
  const midnight = new Date(year, month - 1, date + days);
  return Number.isNaN(midnight.getTime()) ? null : midnight.toISOString();
}

/**
 * The query of GET /api/admin/audit for these filters: the "to" day is included (the server's
 * `before` is the next local midnight); empty filters are left out.
 */
export function auditQuery(filters: AuditFilters, cursor?: number | null): AuditQuery {
  return {
    actor_id: filters.actor || undefined,
    kind: filters.kind || undefined,
    since: (filters.from && localMidnight(filters.from)) || undefined,
    before: (filters.to && localMidnight(filters.to, 1)) || undefined,
    cursor: cursor || undefined,
  };
}

/** GET /api/admin/audit: one page (50) of the staff audit log, newest first (super_admin). */
export function getAuditLog({
  filters,
  cursor,
  signal,
}: {
  filters: AuditFilters;
  cursor?: number | null;
  signal?: AbortSignal;
}): Promise<AuditPage> {
  return api.get('/admin/audit', { params: { query: auditQuery(filters, cursor) }, signal });
}

export const auditKeys = queryKeys.admin.audit;

export function getAuditLogQueryOptions(filters: AuditFilters) {
  return infiniteQueryOptions({
    queryKey: auditKeys.list(filters),
    queryFn: ({ signal, pageParam }) => getAuditLog({ filters, cursor: pageParam, signal }),
    initialPageParam: null as number | null,
    getNextPageParam: (lastPage) => lastPage.next_cursor,
    meta: { userScoped: true },
  });
}

export function useAuditLog(filters: AuditFilters) {
  return useInfiniteQuery(getAuditLogQueryOptions(filters));
}
