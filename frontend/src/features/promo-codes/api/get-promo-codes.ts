import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import type { Schemas } from '@/types/api';

/** A code as staff see it: discount, expiry, uses so far and limit, active. */
export type StaffPromoCode = Schemas['PromoCodeJson'];

export const promoCodesQueryKey = queryKeys.admin.promoCodes;

/** GET /api/admin/promo-codes: every code, newest first (super_admin). */
export function getPromoCodes({ signal }: { signal?: AbortSignal } = {}): Promise<
  StaffPromoCode[]
> {
  return api.get('/admin/promo-codes', { signal });
}

export function getPromoCodesQueryOptions() {
  return queryOptions({
    queryKey: promoCodesQueryKey,
    queryFn: ({ signal }) => getPromoCodes({ signal }),
    meta: { userScoped: true },
  });
}

export function usePromoCodes() {
  return useQuery(getPromoCodesQueryOptions());
}
