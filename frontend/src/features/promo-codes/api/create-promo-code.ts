import { useMutation, useQueryClient } from '@tanstack/react-query';

import { toast } from '@/components/ui/toast';
import { api } from '@/lib/api-client';
import type { Schemas } from '@/types/api';

import { promoCodesQueryKey } from './get-promo-codes';

/**
 * `code` is stored uppercase; `discount_percent` 1 to 100; `expires_at` an ISO date-time or null
 * for no expiry; `max_uses` the total redemptions allowed, left out for no limit.
 */
export type NewPromoCode = Schemas['NewPromoCode'];

export type PromoCode = Schemas['CreatedPromoCode'];

/** POST /api/admin/promo-codes: 201; 422 per field. */
export function createPromoCode(body: NewPromoCode): Promise<PromoCode> {
  return api.post('/admin/promo-codes', { body });
}

export const PROMO_CREATED = 'Promo code created successfully!';
export const PROMO_FAILED = 'Failed to create promo code.';

export function useCreatePromoCode() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createPromoCode,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: promoCodesQueryKey });
      toast.success(PROMO_CREATED);
    },
    onError: (error) => {
      console.error('Creating the promo code failed.', error);
      toast.error(PROMO_FAILED);
    },
  });
}
