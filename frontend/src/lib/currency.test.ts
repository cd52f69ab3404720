import { describe, expect, it } from 'vitest';

import type { PaymentMethod } from '@/lib/currency';
import { chargeIn, convertUnitCents } from '@/lib/currency';
import { readSharedVectors } from '@/testing/shared-vectors';

type CurrencyVectors = {
  carts: Array<{
    currency: string;
    rate: string;
    minor_units: number;
    rounding: string;
    lines: Array<{ price: string; qty: number }>;
    discount_percent: number | null;
    method: PaymentMethod;
    expected: {
      unit_prices: number[];
      subtotal: number;
      discount: number;
      total: number;
      fee: number;
      grand_total: number;
    };
  }>;
};

const vectors = readSharedVectors<CurrencyVectors>('currency.json');

/** "4.99" → 499, without a float in the way. */
function cents(price: string): number {
  const [whole, decimals = ''] = price.split('.');
  return Number(whole) * 100 + Number(decimals.padEnd(2, '0'));
}

describe('a cart in the shopper’s currency, pinned by the vectors the server tests read too', () => {
  it.each(vectors.carts)(
    '$currency at $rate, rounding $rounding, $discount_percent % off, $method',
    ({ currency, rate, minor_units, rounding, lines, discount_percent, method, expected }) => {
      const charge = chargeIn(
        { code: currency, rate, minor_units, rounding },
        lines.map((line) => ({ priceCents: cents(line.price), qty: line.qty })),
        discount_percent,
        method,
      );
      expect(charge).toEqual({
        unitPrices: expected.unit_prices,
        subtotal: expected.subtotal,
        discount: expected.discount,
        total: expected.total,
        fee: expected.fee,
        grandTotal: expected.grand_total,
      });
    },
  );

  it('keeps prices of record exact in the base currency', () => {
    const usd = { code: 'USD', rate: '1', minor_units: 2, rounding: 'minor' };
    expect(convertUnitCents(2499, usd)).toBe(2499);
    expect(convertUnitCents(1, usd)).toBe(1);
  });
});
