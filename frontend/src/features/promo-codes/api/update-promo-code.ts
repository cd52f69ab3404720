import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';

import { toast } from '@/components/ui/toast';
import { api, errorMessage, fieldErrors } from '@/lib/api-client';
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

/** The fields an edit can change, each of which a 422 can name. */
const EDITABLE_FIELDS = ['discount_percent', 'expires_at', 'max_uses', 'active'];

function putInCache(queryClient: QueryClient, updated: StaffPromoCode) {
  queryClient.setQueryData<StaffPromoCode[]>(promoCodesQueryKey, (current) =>
    current?.map((code) => (code.id === updated.id ? updated : code)),
  );
}

/**
 * Saves the edit form's changes. A 422 naming one of the form's fields shows under that field
 * (the form's business); any other failure is a toast.
 */
export function useUpdatePromoCode() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updatePromoCode,
    onSuccess: (updated) => {
      putInCache(queryClient, updated);
      toast.success(`Promo code ${updated.code} saved.`);
    },
    onError: (error) => {
      console.error('Saving the promo code failed.', error);
      const named = Object.keys(fieldErrors(error)).some((field) =>
        EDITABLE_FIELDS.includes(field),
      );
      if (!named) toast.error(errorMessage(error));
    },
    onSettled: () => void queryClient.invalidateQueries({ queryKey: promoCodesQueryKey }),
  });
}

/** Switches a code on or off from the list; its variables are the code, which the toast names. */
export function useSwitchPromoCode() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ code, active }: { code: StaffPromoCode; active: boolean }) =>
      updatePromoCode({ id: code.id, change: { active } }),
    onSuccess: (updated, { code, active }) => {
      putInCache(queryClient, updated);
      toast.success(
        active
          ? `${code.code} is active again.`
          : `${code.code} is switched off. Orders that used it keep it.`,
      );
    },
    onError: (error) => {
      console.error('Changing the promo code failed.', error);
      toast.error(errorMessage(error));
    },
    onSettled: () => void queryClient.invalidateQueries({ queryKey: promoCodesQueryKey }),
  });
}
