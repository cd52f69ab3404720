import { describe, expect, it } from 'vitest';

import type { Currency } from '@/lib/currency';
import { resolveCurrency } from '@/lib/currency-choice';

const offered = ['USD', 'EUR', 'GBP', 'BRL', 'MXN', 'CAD', 'AUD', 'PLN', 'PHP'].map(
  (code): Currency => ({
    code,
    rate: code === 'USD' ? '1' : '2',
    minor_units: 2,
    rounding: 'minor',
  }),
);
const code = (choice: string | undefined, tags: string[], list: readonly Currency[] = offered) =>
  resolveCurrency(list, choice, tags).code;

describe('the currency prices are shown in', () => {
  it('is the shopper’s choice when the shop offers it', () => {
    expect(code('GBP', ['pt-BR'])).toBe('GBP');
  });

  it('falls back like no choice when the choice is not offered (rates too old, or unknown)', () => {
    expect(code('BRL', ['pt-BR'], offered.slice(0, 1))).toBe('USD');
    expect(code('XYZ', ['de-DE'])).toBe('EUR');
  });

  it('is the region’s currency, from the language shown first, then the browser’s', () => {
    expect(code(undefined, ['pt-BR'])).toBe('BRL');
    expect(code(undefined, ['es', 'es-MX'])).toBe('MXN');
    expect(code(undefined, ['en', 'en-GB'])).toBe('GBP');
    expect(code(undefined, ['fr', 'fr-CA'])).toBe('CAD');
    expect(code(undefined, ['de', 'de-AT'])).toBe('EUR');
    expect(code(undefined, ['en', 'en-AU'])).toBe('AUD');
    expect(code(undefined, ['en', 'fil-PH'])).toBe('PHP');
  });

  it('is the language’s currency when no tag names a region', () => {
    expect(code(undefined, ['de'])).toBe('EUR');
    expect(code(undefined, ['fr'])).toBe('EUR');
    expect(code(undefined, ['pl'])).toBe('PLN');
  });

  it('is the base currency when nothing tells (Spanish alone, English alone, a region not offered)', () => {
    expect(code(undefined, ['es'])).toBe('USD');
    expect(code(undefined, ['en'])).toBe('USD');
    expect(code(undefined, ['ja-JP'])).toBe('USD');
    expect(code(undefined, ['pt-BR'], offered.slice(0, 2))).toBe('USD');
  });

  it('is the base until the shop has said what it offers', () => {
    expect(resolveCurrency([], 'BRL', ['pt-BR'])).toEqual({
      code: 'USD',
      rate: '1',
      minor_units: 2,
      rounding: 'minor',
    });
  });
});
