import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import type { Schemas } from '@/types/api';

import { promoCodesQueryKey, type StaffPromoCode } from './get-promo-codes';

/** Any of discount_percent, expires_at, max_uses, active; the others stay as they are. */
export type PromoCodeChange = Schemas['PromoCodeChange'];

/** PATCH /api/admin/promo-codes/{id}: 200 with the code as it is now; 422 per field. */
export function updatePromoCode({
  id,
  change,
}: {
  id: number;
  change: PromoCodeChange;
}): Promise<StaffPromoCode> {
  return api.patch('/admin/promo-codes/{id}', { params: { path: { id } }, body: change });
}

export function useUpdatePromoCode() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updatePromoCode,
    onSuccess: (updated) =>
      queryClient.setQueryData<StaffPromoCode[]>(promoCodesQueryKey, (current) =>
        current?.map((code) => (code.id === updated.id ? updated : code)),
      ),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: promoCodesQueryKey }),
  });
}
