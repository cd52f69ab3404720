import { roundedSaving } from '@/lib/money';
import type { Product } from '@/types/api';

/** 'Out of Stock' at 0, '{n} Stock Left' when finite, null when unlimited. */
export function stockLabel(stock: number | null): string | null {
  if (stock === null) return null;
  if (stock <= 0) return 'Out of Stock';
  return `${stock} Stock Left`;
}

/** 'Save $15' when the product has a real saving, else null. */
export function saveLabel(product: Pick<Product, 'price' | 'savings'>): string | null {
  const saving = roundedSaving(product.price, product.savings);
  return saving === null ? null : `Save $${saving}`;
}

/** '2.5 kg' */
export function weightLabel(weight: number | null): string | null {
  return weight === null ? null : `${weight} kg`;
}

/** "Pets, Exclusives" -> "Pets · Exclusives" for display. */
export function categoryLabel(category: string): string {
  return category
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
    .join(' · ');
}
