import { describe, expect, it } from 'vitest';

import {
  formatLinePrice,
  formatSubtotal,
  formatUnitPrice,
  unitMinor,
  wholeSaving,
  type Currency,
} from '@/lib/currency';
import { formatMoney, formatPrice } from '@/lib/money';

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

/** Intl separates a sign from its number by a no-break space: a plain one reads easier here. */
const plain = (text: string) => text.replace(/\u00a0|\u202f/g, ' ');

describe('formatMoney', () => {
  it('writes an amount in a named currency the way the language writes money', () => {
    expect(plain(formatMoney(57.43, 'BRL', 'pt-BR'))).toBe('R$ 57,43');
    expect(plain(formatMoney('57.43', 'EUR', 'de'))).toBe('57,43 €');
    expect(formatMoney(57.43, 'USD', 'en')).toBe('$57.43');
    expect(formatMoney(5300, 'JPY', 'en')).toBe('¥5,300');
  });

  it('leaves the decimals out when asked for whole units', () => {
    expect(plain(formatMoney(80, 'BRL', 'pt-BR', { whole: true }))).toBe('R$ 80');
    expect(formatMoney(15, 'USD', 'en', { whole: true })).toBe('$15');
  });
});

const USD: Currency = { code: 'USD', rate: '1', minor_units: 2, rounding: 'minor' };
const BRL: Currency = { code: 'BRL', rate: '5.34144', minor_units: 2, rounding: 'minor' };
const BRL_90: Currency = { ...BRL, rounding: '0.90' };

describe('prices shown in the shopper’s currency', () => {
  it('converts each unit price first, then multiplies and sums (as checkout charges)', () => {
    // 4.99 × 5.34144 = 26.6538 → R$ 26,65; two of them R$ 53,30, not 2 × 4.99 converted (53,31)
    expect(unitMinor(4.99, BRL)).toBe(2665);
    expect(plain(formatLinePrice(4.99, 2, BRL))).toBe('R$53.30');
    expect(
      plain(
        formatSubtotal(
          [
            { price: 4.99, qty: 2 },
            { price: 0.1, qty: 3 },
          ],
          BRL,
        ),
      ),
    ).toBe('R$54.89');
    expect(formatUnitPrice(24.99, BRL_90)).toBe('R$133.90');
  });

  it('keeps dollars exact to the cent', () => {
    expect(formatLinePrice(24.99, 3, USD)).toBe('$74.97');
    expect(formatLinePrice(0.1, 3, USD)).toBe('$0.30');
    expect(
      formatSubtotal(
        [
          { price: 0.1, qty: 1 },
          { price: 0.2, qty: 1 },
        ],
        USD,
      ),
    ).toBe('$0.30');
    expect(formatSubtotal([], USD)).toBe('$0.00');
  });

  it('shows a saving in whole units of the currency, each price converted first', () => {
    expect(wholeSaving(24.99, 39.99, USD)).toBe('$15');
    expect(wholeSaving(10, 15.49, USD)).toBe('$5');
    expect(wholeSaving(10, 15.5, USD)).toBe('$6');
    // R$ 213,60 − R$ 133,48 = R$ 80,12 → R$ 80
    expect(wholeSaving(24.99, 39.99, BRL)).toBe('R$80');
  });

  it('shows no saving when there is none', () => {
    expect(wholeSaving(24.99, null, USD)).toBeNull();
    expect(wholeSaving(24.99, 0, USD)).toBeNull();
    expect(wholeSaving(24.99, 24.99, BRL)).toBeNull();
    expect(wholeSaving(24.99, 20, USD)).toBeNull();
  });
});
