import { describe, expect, it } from 'vitest';

import { digitsOnly, inventoryLabel, parseInventory } from './inventory-input';

describe('inventory input', () => {
  it('keeps digits only', () => {
    expect(digitsOnly('1a2')).toBe('12');
    expect(digitsOnly('-3')).toBe('3');
    expect(digitsOnly('4.5')).toBe('45');
    expect(digitsOnly('abc')).toBe('');
  });

  it('reads an empty box as 0', () => {
    expect(parseInventory('')).toBe(0);
    expect(parseInventory('007')).toBe(7);
  });

  it('labels the stock', () => {
    expect(inventoryLabel(0)).toBe('Out of Stock');
    expect(inventoryLabel(-2)).toBe('Out of Stock');
    expect(inventoryLabel(5)).toBe('5 in Stock');
    expect(inventoryLabel(null)).toBe('Unlimited');
  });
});
