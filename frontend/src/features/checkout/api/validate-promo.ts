import { useMutation } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

export type ValidatePromoInput = { promo_code: string; discord_id: string };

/**
 * POST /api/validate-promo: the code's discount in percent for this session's Discord account.
 * 422 with the reason when it cannot be used (unknown, expired, used up, already used).
 */
export async function validatePromo(input: ValidatePromoInput): Promise<number> {
  const { discount } = await api.post('/validate-promo', { body: input });
  return discount;
}

export function useValidatePromo() {
  return useMutation({ mutationFn: validatePromo });
}
