import { describe, expect, it } from 'vitest';

import {
  checkoutAmounts,
  discountedCents,
  grandTotalCents,
  processingFeeCents,
  type PaymentMethod,
} from '@/lib/checkout-amounts';
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
const stock = readSharedVectors<StockVectors>('stock-messages.json');

describe('the fee rules, pinned by the vectors the server tests read too', () => {
  it.each(fees.grand_totals)(
    '$method on $total_cents cents: $grand_total_cents in all',
    ({ total_cents, method, grand_total_cents, fee_cents }) => {
      expect(grandTotalCents(total_cents, method)).toBe(grand_total_cents);
      expect(processingFeeCents(total_cents, method)).toBe(fee_cents);
    },
  );

  it.each(fees.discounts)(
    '$percent % off $subtotal_cents cents leaves $total_cents',
    ({ subtotal_cents, percent, total_cents }) => {
      expect(discountedCents(subtotal_cents, percent)).toBe(total_cents);
    },
  );

  it.each(fees.carts)(
    'a $method cart with $discount_percent % off totals $grand_total_cents cents',
    ({ lines, discount_percent, method, ...expected }) => {
      const priced = checkoutAmounts(
        lines.map((line) => ({ price: line.price_cents / 100, qty: line.qty })),
        discount_percent ?? 0,
        method,
      );
      expect(priced).toEqual({
        subtotalCents: expected.subtotal_cents,
        discountCents: expected.discount_cents,
        totalCents: expected.total_cents,
        feeCents: expected.fee_cents,
        grandTotalCents: expected.grand_total_cents,
      });
    },
  );
});

describe('the stock messages, pinned by the vectors the server tests read too', () => {
  it.each(stock.cases)('$name', ({ lines, messages }) => {
    expect(stockProblemMessages(lines)).toEqual(messages);
  });
});
