import { useMutation } from '@tanstack/react-query';

import type { OrderPayload, PaymentSession } from '@/features/checkout/types';
import { ApiError, api } from '@/lib/api-client';
import type { PaymentMethod } from '@/lib/currency';

export type StartPaymentInput = {
  method: PaymentMethod;
  order: OrderPayload;
  /** One per press of Complete Payment, the same for every retry of that press. */
  idempotencyKey: string;
};

/** How many times one press is sent again by itself before the shopper is told. */
export const AUTOMATIC_RETRIES = 3;

/**
 * Whether the shop may not have answered this press yet: no answer came back at all (the
 * network, or an instance that died after placing the order), or the first request with this
 * key is still placing the order (a 409 with `Retry-After`). Sending the same key again then
 * answers the order the press placed, if it placed one, instead of placing another.
 */
export function isUnanswered(error: unknown): boolean {
  if (!(error instanceof ApiError)) return false;
  if (error.status === 0) return true;
  if (error.status === 409) return error.retryAfter !== null;
  // a server error may have come after the order was placed; 502 says the payment page failed
  // and the order was cancelled
  return error.status >= 500 && error.status !== 502;
}

/** Waits as the shop asked (`Retry-After`, at most 5 s), or 0.3 s, 0.6 s, 1.2 s... */
export function retryDelay(attempt: number, error: unknown): number {
  if (error instanceof ApiError && error.retryAfter !== null) {
    return Math.min(Math.max(error.retryAfter, 1), 5) * 1000;
  }
  return Math.min(300 * 2 ** attempt, 3000);
}

/**
 * Creates the order, reserves its stock and opens a payment session:
 * POST /api/stripe/checkout (card) or /api/checkout/paypal, with the press's `Idempotency-Key`.
 * 422 missing details, 409 stock too low (`problems`) or prices changed (`cart`).
 */
export function startPayment({
  method,
  order,
  idempotencyKey,
}: StartPaymentInput): Promise<PaymentSession> {
  const init = { body: order, headers: { 'Idempotency-Key': idempotencyKey } };
  return method === 'card'
    ? api.post('/stripe/checkout', init)
    : api.post('/checkout/paypal', init);
}

/**
 * The wait before each automatic retry: `retryDelay`. A component test that is about what the
 * page shows after the retries (not about the waits, which `retryDelay`'s own test pins) sets
 * `delay` to answer 0, so it waits for the answers and not for the clock.
 */
export const retryTiming = { delay: retryDelay };

/** Sends a press again by itself, with the same key, while the shop has not answered it. */
export function useStartPayment() {
  return useMutation({
    mutationFn: startPayment,
    retry: (failures, error) => failures < AUTOMATIC_RETRIES && isUnanswered(error),
    retryDelay: (attempt, error) => retryTiming.delay(attempt, error),
  });
}
