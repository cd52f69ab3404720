import { toCents } from '@/lib/money';

/*
 * The checkout's amounts in whole cents, exactly as the server computes them (DESIGN §3):
 * integer arithmetic only, half-up rounding, no floating-point drift. Kept apart from money.ts
 * so only the checkout downloads it (money.ts is in the storefront's entry chunk).
 */
/** Dollars from whole cents: 1077 -> 10.77. */
export function fromCents(cents: number): number {
  return cents / 100;
}

/** numerator / denominator rounded half-up, both whole and non-negative: exact, no floats. */
function divideHalfUp(numerator: number, denominator: number): number {
  return Math.floor((2 * numerator + denominator) / (2 * denominator));
}

/**
 * The items' total after a percent discount, half-up to the cent, as the server computes it:
 * 24.99 with 10 % off is 22.49; 0.05 with 50 % off is 0.03.
 */
export function discountedCents(subtotalCents: number, discountPercent: number): number {
  if (discountPercent <= 0) return subtotalCents;
  if (discountPercent >= 100) return 0;
  // The percent in hundredths, so a fractional percent stays exact too.
  const keptHundredths = Math.round((100 - discountPercent) * 100);
  return divideHalfUp(subtotalCents * keptHundredths, 10_000);
}

export type PaymentMethod = 'card' | 'paypal';

/**
 * What the shopper pays so the shop receives `totalCents` after the processor's cut (docs/product.md, Constants and limits):
 * card (t + 0.30) / 0.956, PayPal (t + 0.49) / 0.9501, each half-up to the cent.
 */
export function grandTotalCents(totalCents: number, method: PaymentMethod): number {
  return method === 'card'
    ? divideHalfUp((totalCents + 30) * 1000, 956)
    : divideHalfUp((totalCents + 49) * 10_000, 9501);
}

/** The processing-fee line: the grand total minus the items' total. */
export function processingFeeCents(totalCents: number, method: PaymentMethod): number {
  return grandTotalCents(totalCents, method) - totalCents;
}

/** Every amount of a checkout, in whole cents. */
export type CheckoutAmounts = {
  subtotalCents: number;
  discountCents: number;
  /** After the discount, before the fee: the order payload's `total`. */
  totalCents: number;
  feeCents: number;
  grandTotalCents: number;
};

export function checkoutAmounts(
  lines: ReadonlyArray<{ price: number; qty: number }>,
  discountPercent: number,
  method: PaymentMethod,
): CheckoutAmounts {
  const subtotalCents = lines.reduce((cents, line) => cents + toCents(line.price) * line.qty, 0);
  const totalCents = discountedCents(subtotalCents, discountPercent);
  const grand = grandTotalCents(totalCents, method);
  return {
    subtotalCents,
    discountCents: subtotalCents - totalCents,
    totalCents,
    feeCents: grand - totalCents,
    grandTotalCents: grand,
  };
}
