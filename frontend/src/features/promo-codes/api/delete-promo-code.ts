import { useMutation, useQueryClient } from '@tanstack/react-query';

import { toast } from '@/components/ui/toast';
import { api, errorMessage } from '@/lib/api-client';

import { promoCodesQueryKey, type StaffPromoCode } from './get-promo-codes';

/** DELETE /api/admin/promo-codes/{id}: 204; 409 once an order used it. */
export function deletePromoCode(id: number): Promise<undefined> {
  return api.delete('/admin/promo-codes/{id}', { params: { path: { id } } });
}

/** Deletes a code nobody used; its variables are the code, which the toast names. */
export function useDeletePromoCode() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (code: StaffPromoCode) => deletePromoCode(code.id),
    onSuccess: (_, deleted) => {
      queryClient.setQueryData<StaffPromoCode[]>(promoCodesQueryKey, (current) =>
        current?.filter((code) => code.id !== deleted.id),
      );
      toast.success(`${deleted.code} deleted.`);
    },
    onError: (error) => {
      console.error('Deleting the promo code failed.', error);
      toast.error(errorMessage(error));
    },
    onSettled: () => void queryClient.invalidateQueries({ queryKey: promoCodesQueryKey }),
  });
}
