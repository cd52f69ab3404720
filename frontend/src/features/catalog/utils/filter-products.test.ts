import { describe, expect, it } from 'vitest';

import {
  filterProducts,
  isCategory,
  matchesCategory,
  matchesSearch,
} from '@/features/catalog/utils/filter-products';

const raccoon = { name: 'Raccoon', category: 'Pets, Exclusives' };
const sheckles = { name: '10M Sheckles', category: 'Sheckles' };
const bundle = { name: 'Starter Bundle', category: 'bundles' };
const products = [raccoon, sheckles, bundle];

describe('matchesSearch', () => {
  it('matches the name, whatever the case', () => {
    expect(matchesSearch(raccoon, 'raccoon')).toBe(true);
    expect(matchesSearch(raccoon, 'RACC')).toBe(true);
    expect(matchesSearch(raccoon, 'bee')).toBe(false);
  });

  it('matches the category text too', () => {
    expect(matchesSearch(raccoon, 'exclusive')).toBe(true);
    expect(matchesSearch(sheckles, 'sheck')).toBe(true);
  });

  it('matches everything when the search is blank', () => {
    expect(matchesSearch(raccoon, '')).toBe(true);
    expect(matchesSearch(raccoon, '   ')).toBe(true);
  });

  it('ignores surrounding spaces', () => {
    expect(matchesSearch(raccoon, '  raccoon ')).toBe(true);
  });
});

describe('matchesCategory', () => {
  it('matches any of the comma-separated categories, whatever the case', () => {
    expect(matchesCategory(raccoon, 'Pets')).toBe(true);
    expect(matchesCategory(raccoon, 'Exclusives')).toBe(true);
    expect(matchesCategory(raccoon, 'exclusives')).toBe(true);
    expect(matchesCategory(bundle, 'Bundles')).toBe(true);
  });

  it('does not match a category the product is not in', () => {
    expect(matchesCategory(raccoon, 'Sheckles')).toBe(false);
    expect(matchesCategory(sheckles, 'Pets')).toBe(false);
  });

  it('matches whole categories, not parts of them', () => {
    expect(matchesCategory({ category: 'Petstore' }, 'Pets')).toBe(false);
  });

  it('matches every product for All', () => {
    expect(matchesCategory(raccoon, 'All')).toBe(true);
    expect(matchesCategory({ category: '' }, 'All')).toBe(true);
  });
});

describe('filterProducts', () => {
  it('applies the category and the search together, keeping the order', () => {
    expect(filterProducts(products, { category: 'All', search: '' })).toEqual(products);
    expect(filterProducts(products, { category: 'Sheckles', search: '' })).toEqual([sheckles]);
    expect(filterProducts(products, { category: 'Pets', search: 'racc' })).toEqual([raccoon]);
    expect(filterProducts(products, { category: 'Bundles', search: 'racc' })).toEqual([]);
  });
});

describe('isCategory', () => {
  it('knows the sidebar categories only', () => {
    expect(isCategory('Pets')).toBe(true);
    expect(isCategory('pets')).toBe(false);
    expect(isCategory(null)).toBe(false);
  });
});
