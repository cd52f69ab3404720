import { useMutation } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

export type NewPromoCode = {
  /** Stored uppercase. */
  code: string;
  /** 1 to 100. */
  discount_percent: number;
  /** ISO date-time, or null for no expiry. */
  expires_at: string | null;
  /** Total redemptions allowed; left out for no limit. */
  max_uses?: number;
};

export type PromoCode = NewPromoCode & { id?: number };

/** POST /api/admin/promo-codes: 201; 422 per field. */
export function createPromoCode(body: NewPromoCode): Promise<PromoCode> {
  return api.post<PromoCode>('/admin/promo-codes', body);
}

export function useCreatePromoCode() {
  return useMutation({ mutationFn: createPromoCode });
}
