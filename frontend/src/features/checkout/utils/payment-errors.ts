import i18next from 'i18next';
import type { ServerPricedCart } from '@/features/checkout/types';
import { ApiError, firstFieldMessages } from '@/lib/api-client';

export const PAYMENT_FAILED = () => i18next.t('checkout.paymentFailed');
export const NO_REDIRECT_URL = () => i18next.t('checkout.noRedirect');

/** What a failed payment start means for the page. */
export type PaymentFailure =
  | { kind: 'stock'; problems: string[] }
  | { kind: 'price'; message: string; cart: ServerPricedCart }
  | { kind: 'message'; message: string; fields: CheckoutFieldErrors };

/** A message under each checkout field that needs the shopper (Discord: under its button). */
export type CheckoutFieldErrors = Partial<Record<'roblox_username' | 'email' | 'discord', string>>;

/** The server's per-field messages of a 422, under the checkout's fields. */
function checkoutFields(error: ApiError): CheckoutFieldErrors {
  if (error.status !== 422) return {};
  const first = firstFieldMessages(error.errors);
  const fields: CheckoutFieldErrors = {};
  if (first.roblox_username) fields.roblox_username = first.roblox_username;
  if (first.email) fields.email = first.email;
  if (first.discord_id) fields.discord = first.discord_id;
  return fields;
}

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
    return { kind: 'message', message: error.message, fields: {} };
  }
  if (!(error instanceof ApiError) || !isRecord(error.body)) {
    return { kind: 'message', message: PAYMENT_FAILED(), fields: {} };
  }
  const body = error.body;
  if (error.status === 409 && Array.isArray(body.problems)) {
    const problems = body.problems.filter((p): p is string => typeof p === 'string');
    if (problems.length > 0) return { kind: 'stock', problems };
  }
  if (error.status === 409 && isPricedCart(body.cart)) {
    return { kind: 'price', message: error.message, cart: body.cart };
  }
  const message =
    typeof body.message === 'string' && body.message ? body.message : PAYMENT_FAILED();
  return { kind: 'message', message, fields: checkoutFields(error) };
}
