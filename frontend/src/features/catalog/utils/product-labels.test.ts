import { describe, expect, it } from 'vitest';

import {
  categoryLabel,
  saveLabel,
  stockLabel,
  weightLabel,
} from '@/features/catalog/utils/product-labels';
import type { Currency } from '@/lib/currency';

const USD: Currency = { code: 'USD', rate: '1', minor_units: 2, rounding: 'minor' };
const BRL: Currency = { code: 'BRL', rate: '5.34144', minor_units: 2, rounding: 'minor' };

describe('product labels', () => {
  it('reads the stock', () => {
    expect(stockLabel(0)).toBe('Out of Stock');
    expect(stockLabel(5)).toBe('5 Stock Left');
    expect(stockLabel(1)).toBe('1 Stock Left');
    expect(stockLabel(null)).toBeNull();
  });

  it('shows the rounded saving', () => {
    expect(saveLabel({ price: 24.99, savings: 39.99 }, USD)).toBe('Save $15');
    expect(saveLabel({ price: 24.99, savings: 0 }, USD)).toBeNull();
    expect(saveLabel({ price: 24.99, savings: null }, USD)).toBeNull();
  });

  it('shows the saving in the shopper’s currency, each price converted first', () => {
    expect(saveLabel({ price: 24.99, savings: 39.99 }, BRL)).toBe('Save R$80');
  });

  it('shows the weight in kg', () => {
    expect(weightLabel(2.5)).toBe('2.5 kg');
    expect(weightLabel(null)).toBeNull();
  });

  it('lists several categories', () => {
    expect(categoryLabel('Pets, Exclusives')).toBe('Pets · Exclusives');
    expect(categoryLabel('Pets')).toBe('Pets');
  });
});
