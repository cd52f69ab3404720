import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import { promoCodesQueryKey, type StaffPromoCode } from './get-promo-codes';

/** DELETE /api/admin/promo-codes/{id}: 204; 409 once an order used it. */
export function deletePromoCode(id: number): Promise<undefined> {
  return api.delete('/admin/promo-codes/{id}', { params: { path: { id } } });
}

export function useDeletePromoCode() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deletePromoCode,
    onSuccess: (_, id) =>
      queryClient.setQueryData<StaffPromoCode[]>(promoCodesQueryKey, (current) =>
        current?.filter((code) => code.id !== id),
      ),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: promoCodesQueryKey }),
  });
}
