import { describe, expect, it } from 'vitest';

import { formatPrice, lineTotal, roundedSaving, sumLines } from '@/lib/money';

describe('formatPrice', () => {
  it.each([
    [24.99, '$24.99'],
    [5, '$5.00'],
    [0.5, '$0.50'],
    [0, '$0.00'],
    [1234.5, '$1,234.50'],
    [19.999, '$20.00'],
  ])('formats %s as %s', (amount, expected) => {
    expect(formatPrice(amount)).toBe(expected);
  });
});

describe('line totals', () => {
  it('multiplies exactly to the cent', () => {
    expect(lineTotal(24.99, 3)).toBe(74.97);
    expect(lineTotal(0.1, 3)).toBe(0.3);
  });

  it('sums lines without floating-point drift', () => {
    expect(
      sumLines([
        { price: 0.1, qty: 1 },
        { price: 0.2, qty: 1 },
      ]),
    ).toBe(0.3);
    expect(
      sumLines([
        { price: 24.99, qty: 2 },
        { price: 4.5, qty: 3 },
      ]),
    ).toBe(63.48);
    expect(sumLines([])).toBe(0);
  });
});

describe('roundedSaving', () => {
  it('is the original price minus the price, rounded to whole dollars', () => {
    expect(roundedSaving(24.99, 39.99)).toBe(15);
    expect(roundedSaving(10, 15.49)).toBe(5);
    expect(roundedSaving(10, 15.5)).toBe(6);
  });

  it('is null when there is no saving to show', () => {
    expect(roundedSaving(24.99, null)).toBeNull();
    expect(roundedSaving(24.99, 0)).toBeNull();
    expect(roundedSaving(24.99, 24.99)).toBeNull();
    expect(roundedSaving(24.99, 20)).toBeNull();
  });
});
