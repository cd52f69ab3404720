import { useMutation } from '@tanstack/react-query';

import type { OrderPayload, PaymentSession } from '@/features/checkout/types';
import { api } from '@/lib/api-client';
import type { PaymentMethod } from '@/lib/checkout-amounts';

const ENDPOINTS: Record<PaymentMethod, string> = {
  card: '/stripe/checkout',
  paypal: '/checkout/paypal',
};

export type StartPaymentInput = { method: PaymentMethod; order: OrderPayload };

/**
 * Creates the order, reserves its stock and opens a payment session:
 * POST /api/stripe/checkout (card) or /api/checkout/paypal. 422 missing details,
 * 409 stock too low (`problems`) or prices changed (`cart`).
 */
export function startPayment({ method, order }: StartPaymentInput): Promise<PaymentSession> {
  return api.post<PaymentSession>(ENDPOINTS[method], order);
}

export function useStartPayment() {
  return useMutation({ mutationFn: startPayment });
}
