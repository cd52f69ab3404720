import { describe, expect, it } from 'vitest';

import { chargeIn, withFee, type Currency, type PaymentMethod } from '@/lib/currency';
import { stockProblemMessages, type StockCheckLine } from '@/lib/stock';
import { readSharedVectors } from '@/testing/shared-vectors';

type FeeVectors = {
  grand_totals: Array<{
    total_cents: number;
    method: PaymentMethod;
    grand_total_cents: number;
    fee_cents: number;
  }>;
  discounts: Array<{ subtotal_cents: number; percent: number; total_cents: number }>;
  carts: Array<{
    lines: Array<{ price_cents: number; qty: number }>;
    discount_percent: number | null;
    method: PaymentMethod;
    subtotal_cents: number;
    discount_cents: number;
    total_cents: number;
    fee_cents: number;
    grand_total_cents: number;
  }>;
};

type StockVectors = {
  cases: Array<{ name: string; lines: StockCheckLine[]; messages: string[] }>;
};

const fees = readSharedVectors<FeeVectors>('fees.json');
/** The vectors are in the base currency: dollars, rate 1. */
const USD: Currency = { code: 'USD', rate: '1', minor_units: 2, rounding: 'minor' };
const stock = readSharedVectors<StockVectors>('stock-messages.json');

describe('the fee rules, pinned by the vectors the server tests read too', () => {
  it.each(fees.grand_totals)(
    '$method on $total_cents cents: $grand_total_cents in all',
    ({ total_cents, method, grand_total_cents, fee_cents }) => {
      expect(withFee(USD, total_cents, method)).toEqual({
        fee: fee_cents,
        grandTotal: grand_total_cents,
      });
    },
  );

  it.each(fees.discounts)(
    '$percent % off $subtotal_cents cents leaves $total_cents',
    ({ subtotal_cents, percent, total_cents }) => {
      const line = [{ priceCents: subtotal_cents, qty: 1 }];
      expect(chargeIn(USD, line, percent, 'card').total).toBe(total_cents);
    },
  );

  it.each(fees.carts)(
    'a $method cart with $discount_percent % off totals $grand_total_cents cents',
    ({ lines, discount_percent, method, ...expected }) => {
      const priced = chargeIn(
        USD,
        lines.map((line) => ({ priceCents: line.price_cents, qty: line.qty })),
        discount_percent,
        method,
      );
      expect(priced).toEqual({
        unitPrices: lines.map((line) => line.price_cents),
        subtotal: expected.subtotal_cents,
        discount: expected.discount_cents,
        total: expected.total_cents,
        fee: expected.fee_cents,
        grandTotal: expected.grand_total_cents,
      });
    },
  );
});

describe('the stock messages, pinned by the vectors the server tests read too', () => {
  it.each(stock.cases)('$name', ({ lines, messages }) => {
    expect(stockProblemMessages(lines)).toEqual(messages);
  });
});
