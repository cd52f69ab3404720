import i18next from 'i18next';

import { currentLanguage } from '@/lib/i18n/format';
import { wholeSaving, type Currency } from '@/lib/currency';
import type { Product } from '@/types/api';

/** 'Out of Stock' at 0, '{n} Stock Left' when finite, null when unlimited. */
export function stockLabel(stock: number | null): string | null {
  if (stock === null) return null;
  if (stock <= 0) return i18next.t('product.outOfStock');
  return i18next.t('product.stockLeft', { count: stock });
}

/** 'Save $15' (in `currency`) when the product has a real saving, else null. */
export function saveLabel(
  product: Pick<Product, 'price' | 'savings'>,
  currency: Currency,
): string | null {
  const saving = wholeSaving(product.price, product.savings, currency);
  return saving === null ? null : i18next.t('product.save', { amount: saving });
}

/** '2.5 kg' */
export function weightLabel(weight: number | null): string | null {
  return weight === null
    ? null
    : new Intl.NumberFormat(currentLanguage(), { style: 'unit', unit: 'kilogram' }).format(weight);
}

/** A category's name in the shop's language; a category the shop does not know, as written. */
export function categoryName(category: string): string {
  switch (category.trim().toLowerCase()) {
    case 'all':
      return i18next.t('catalog.category.all');
    case 'pets':
      return i18next.t('catalog.category.pets');
    case 'sheckles':
      return i18next.t('catalog.category.sheckles');
    case 'bundles':
      return i18next.t('catalog.category.bundles');
    case 'exclusives':
      return i18next.t('catalog.category.exclusives');
    default:
      return category.trim();
  }
}

/** "Pets, Exclusives" -> "Pets · Exclusives" for display (each in the shop's language). */
export function categoryLabel(category: string): string {
  return category
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
    .map(categoryName)
    .join(' · ');
}
