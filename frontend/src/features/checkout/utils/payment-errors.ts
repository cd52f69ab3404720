import type { ServerPricedCart } from '@/features/checkout/types';
import { ApiError } from '@/lib/api-client';

export const PAYMENT_FAILED = 'Payment failed.';
export const NO_REDIRECT_URL = 'Payment session created, but no redirect URL was returned.';

/** What a failed payment start means for the page. */
export type PaymentFailure =
  | { kind: 'stock'; problems: string[] }
  | { kind: 'price'; message: string; cart: ServerPricedCart }
  | { kind: 'message'; message: string };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function isPricedCart(value: unknown): value is ServerPricedCart {
  return (
    isRecord(value) &&
    Array.isArray(value.lines) &&
    typeof value.total === 'number' &&
    typeof value.grand_total === 'number'
  );
}

/** Sorts a thrown error into the stock alert, the changed-price review, or a message. */
export function toPaymentFailure(error: unknown): PaymentFailure {
  // no answer: say so (the same press, sent again, cannot place a second order)
  if (error instanceof ApiError && error.status === 0) {
    return { kind: 'message', message: error.message };
  }
  if (!(error instanceof ApiError) || !isRecord(error.body)) {
    return { kind: 'message', message: PAYMENT_FAILED };
  }
  const body = error.body;
  if (error.status === 409 && Array.isArray(body.problems)) {
    const problems = body.problems.filter((p): p is string => typeof p === 'string');
    if (problems.length > 0) return { kind: 'stock', problems };
  }
  if (error.status === 409 && isPricedCart(body.cart)) {
    return { kind: 'price', message: error.message, cart: body.cart };
  }
  const message = typeof body.message === 'string' && body.message ? body.message : PAYMENT_FAILED;
  return { kind: 'message', message };
}
