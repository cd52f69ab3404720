import { describe, expect, it } from 'vitest';

import { chargeIn, majorUnits, withFee, type Currency, type PaymentMethod } from '@/lib/currency';

/** The worked examples are in the base currency: dollars, rate 1. */
const USD: Currency = { code: 'USD', rate: '1', minor_units: 2, rounding: 'minor' };
const grandTotalCents = (total: number, method: PaymentMethod) =>
  withFee(USD, total, method).grandTotal;
const processingFeeCents = (total: number, method: PaymentMethod) =>
  withFee(USD, total, method).fee;
const discountedCents = (subtotal: number, percent: number) =>
  chargeIn(USD, [{ priceCents: subtotal, qty: 1 }], percent, 'card').total;
const checkoutAmounts = (
  lines: ReadonlyArray<{ price: number; qty: number }>,
  percent: number,
  method: PaymentMethod,
) => {
  const cents = lines.map((line) => ({ priceCents: Math.round(line.price * 100), qty: line.qty }));
  const { subtotal, discount, total, fee, grandTotal } = chargeIn(USD, cents, percent, method);
  return { subtotal, discount, total, fee, grandTotal };
};

describe('checkout amounts in the base currency (the server rules, in whole cents)', () => {
  it('adds the card fee: (t + 0.30) / 0.956, half-up to the cent', () => {
    // (10.00 + 0.30) / 0.956 = 10.774058 -> 10.77
    expect(grandTotalCents(1000, 'card')).toBe(1077);
    expect(processingFeeCents(1000, 'card')).toBe(77);
    // Either side of a half cent: 0.66 -> 1.004184 -> 1.00 and 0.67 -> 1.014644 -> 1.01
    expect(grandTotalCents(66, 'card')).toBe(100);
    expect(grandTotalCents(67, 'card')).toBe(101);
    // 3.91 -> 4.403765 -> 4.40
    expect(grandTotalCents(391, 'card')).toBe(440);
    // Nothing to pay but the fixed part of the fee: 0.30 / 0.956 = 0.3138 -> 0.31
    expect(grandTotalCents(0, 'card')).toBe(31);
  });

  it('adds the PayPal fee: (t + 0.49) / 0.9501', () => {
    // (10.00 + 0.49) / 0.9501 = 11.040943 -> 11.04
    expect(grandTotalCents(1000, 'paypal')).toBe(1104);
    // (0.01 + 0.49) / 0.9501 = 0.526260 -> 0.53
    expect(grandTotalCents(1, 'paypal')).toBe(53);
  });

  it('rounds exactly where floating point would drift', () => {
    // 1.005 * 100 is 100.49999… in floats; the fee math never multiplies dollars by floats.
    for (let cents = 0; cents <= 20_000; cents += 1) {
      const exact = (BigInt(cents + 30) * 2000n + 956n) / 1912n;
      expect(grandTotalCents(cents, 'card')).toBe(Number(exact));
    }
  });

  it('takes a percent discount half-up to the cent', () => {
    // 24.99 x 0.9 = 22.491 -> 22.49
    expect(discountedCents(2499, 10)).toBe(2249);
    // 0.05 x 0.5 = 0.025 -> 0.03 (half-up, not banker's)
    expect(discountedCents(5, 50)).toBe(3);
    expect(discountedCents(2331, 100)).toBe(0);
    expect(discountedCents(2331, 0)).toBe(2331);
  });

  it('prices a whole checkout: subtotal, discount, fee and grand total', () => {
    const amounts = checkoutAmounts(
      [
        { price: 24.99, qty: 1 },
        { price: 0.1, qty: 3 },
      ],
      10,
      'card',
    );
    // 25.29 x 0.9 = 22.761 -> 22.76; (22.76 + 0.30) / 0.956 = 24.121338 -> 24.12
    expect(amounts).toEqual({
      subtotal: 2529,
      discount: 253,
      total: 2276,
      fee: 136,
      grandTotal: 2412,
    });
    expect(majorUnits(amounts.total, USD)).toBe(22.76);
  });

  it('leaves only the fee with a full discount', () => {
    expect(checkoutAmounts([{ price: 7.77, qty: 3 }], 100, 'card')).toEqual({
      subtotal: 2331,
      discount: 2331,
      total: 0,
      fee: 31,
      grandTotal: 31,
    });
  });
});
