/*
 * A cart in the shopper's currency, exactly as the server charges it
 * (crates/domain/cart-pricing/src/currency.rs; both pinned by the shared vectors
 * crates/domain/cart-pricing/tests/vectors/currency.json). Integer arithmetic only (BigInt, as
 * a price in minor units times a six-decimal rate outgrows a float's exact range), half-up:
 * 1. each unit price of record converted at the rate and rounded by the currency's rule;
 * 2. line totals summed;
 * 3. the promo's percent taken off, half-up to the minor unit;
 * 4. the fee on that total, its fixed part converted at the same rate and rounded half-up.
 * Kept apart from money.ts, so only the pages that show a price download it (not the entry).
 */
import { formatMoney, toCents } from '@/lib/money';

export type PaymentMethod = 'card' | 'paypal';

/** A currency as `GET /api/site` lists it. */
export type Currency = {
  code: string;
  /** Units of it one unit of the base currency buys: a decimal string ("5.34144"). */
  rate: string;
  minor_units: number;
  /** "minor", or a price ending such as "0.99". */
  rounding: string;
  /** The payment methods that can pay in it; absent: every method the shop has on. */
  methods?: readonly string[];
};

/** A decimal string as a whole number over a power of ten: "5.34144" → 534144n / 10^5. */
function fraction(text: string): { value: bigint; scale: bigint } {
  const [whole, decimals = ''] = text.trim().split('.');
  return { value: BigInt(whole + decimals), scale: 10n ** BigInt(decimals.length) };
}

/** n / d (both positive) rounded half-up. */
function divideHalfUp(n: bigint, d: bigint): bigint {
  return (2n * n + d) / (2n * d);
}

/** n / d rounded down (n may be negative). */
function divideFloor(n: bigint, d: bigint): bigint {
  const q = n / d;
  return n % d !== 0n && n < 0n !== d < 0n ? q - 1n : q;
}

/** `n / d` minor units (exact) rounded by `rule` to whole minor units. */
function applyRounding(n: bigint, d: bigint, rule: string, minorUnits: number): bigint {
  if (rule === 'minor') return divideHalfUp(n, d);
  const ending = fraction(rule);
  const minor = 10n ** BigInt(minorUnits);
  const end = (ending.value * minor) / ending.scale;
  const wholeDigits = (rule.split('.')[0] ?? '').replace(/^0+/, '').length;
  const step = 10n ** BigInt(wholeDigits) * minor;
  // the candidates around n / d: below = floor((n/d - end) / step) * step + end, above = below + step
  const below = divideFloor(n - end * d, step * d) * step + end;
  const above = below + step;
  // ties go up; nothing below the ending itself
  if (below < end || above * d - n <= n - below * d) return above > end ? above : end;
  return below;
}

/** A unit price of record (base currency, whole cents) in `currency`'s minor units. */
export function convertUnitCents(cents: number, currency: Currency): number {
  const rate = fraction(currency.rate);
  const minor = 10n ** BigInt(currency.minor_units);
  const n = BigInt(cents) * rate.value * minor;
  const d = 100n * rate.scale;
  return Number(applyRounding(n, d, currency.rounding, currency.minor_units));
}

/** Any other amount of record (cents) in `currency`'s minor units, half-up. */
function convertCents(cents: number, currency: Currency): bigint {
  const rate = fraction(currency.rate);
  const n = BigInt(cents) * rate.value * 10n ** BigInt(currency.minor_units);
  return divideHalfUp(n, 100n * rate.scale);
}

/** The fee's fixed part (cents of record) and the share kept, as a fraction. */
const FEES: Record<PaymentMethod, { fixedCents: number; kept: bigint; keptScale: bigint }> = {
  card: { fixedCents: 30, kept: 956n, keptScale: 1000n },
  paypal: { fixedCents: 49, kept: 9501n, keptScale: 10_000n },
};

/** Every amount of a cart in a currency, in its minor units. */
export type Charge = {
  unitPrices: number[];
  subtotal: number;
  discount: number;
  /** After the discount, before the fee: the checkout request's `total`. */
  total: number;
  fee: number;
  grandTotal: number;
};

/** What the shopper pays so the shop keeps `total` (minor units) after `method`'s cut. */
export function withFee(
  currency: Currency,
  total: number,
  method: PaymentMethod,
): { fee: number; grandTotal: number } {
  const fee = FEES[method];
  const fixed = convertCents(fee.fixedCents, currency);
  const grand = divideHalfUp((BigInt(total) + fixed) * fee.keptScale, fee.kept);
  return { fee: Number(grand - BigInt(total)), grandTotal: Number(grand) };
}

/** The cart (`lines`: unit prices of record in cents, quantities) charged in `currency`. */
export function chargeIn(
  currency: Currency,
  lines: ReadonlyArray<{ priceCents: number; qty: number }>,
  discountPercent: number | null,
  method: PaymentMethod,
): Charge {
  const unitPrices = lines.map((line) => convertUnitCents(line.priceCents, currency));
  const subtotal = unitPrices.reduce(
    (sum, unit, i) => sum + BigInt(unit) * BigInt(lines[i]?.qty ?? 0),
    0n,
  );
  const total = discountPercent
    ? divideHalfUp(subtotal * BigInt(100 - discountPercent), 100n)
    : subtotal;
  return {
    unitPrices,
    subtotal: Number(subtotal),
    discount: Number(subtotal - total),
    total: Number(total),
    ...withFee(currency, Number(total), method),
  };
}

/** Minor units of `currency` as an amount in it. */
export function majorUnits(minor: number, currency: Currency): number {
  return minor / 10 ** currency.minor_units;
}

/** Minor units of `currency`, written the reader's way ("R$ 26,65"). */
export function formatMinor(minor: number, currency: Currency): string {
  return formatMoney(majorUnits(minor, currency), currency.code);
}

/** A unit price of record (base currency, as the API sends it) in `currency`'s minor units. */
export function unitMinor(price: number, currency: Currency): number {
  return convertUnitCents(toCents(price), currency);
}

/** A unit price of record shown in `currency`, converted and rounded as checkout charges it. */
export function formatUnitPrice(price: number, currency: Currency): string {
  return formatMinor(unitMinor(price, currency), currency);
}

/** `qty` at a unit price of record, shown in `currency` (the unit converted first). */
export function formatLinePrice(price: number, qty: number, currency: Currency): string {
  return formatMinor(unitMinor(price, currency) * qty, currency);
}

/** The lines' sum in `currency`, each unit converted first: what checkout's subtotal will be. */
export function formatSubtotal(
  lines: ReadonlyArray<{ price: number; qty: number }>,
  currency: Currency,
): string {
  return formatMinor(
    lines.reduce((sum, line) => sum + unitMinor(line.price, currency) * line.qty, 0),
    currency,
  );
}

/**
 * The saving shown as "Save R$ 80": the original price (`savings`) less the price, each
 * converted, in whole units of `currency`, rounded; null when there is nothing to show.
 */
export function wholeSaving(
  price: number,
  savings: number | null,
  currency: Currency,
): string | null {
  if (savings === null || savings === 0) return null;
  const minor = unitMinor(savings, currency) - unitMinor(price, currency);
  const whole = Math.round(majorUnits(minor, currency));
  return whole > 0 ? formatMoney(whole, currency.code, undefined, { whole: true }) : null;
}
