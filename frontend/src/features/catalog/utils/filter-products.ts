import type { Product } from '@/types/api';

/** The categories offered in the sidebar; "All" shows everything. */
export const CATEGORIES = ['All', 'Pets', 'Sheckles', 'Bundles', 'Exclusives'] as const;
export type Category = (typeof CATEGORIES)[number];

export const ALL_CATEGORIES: Category = 'All';

export function isCategory(value: string | null): value is Category {
  return CATEGORIES.some((category) => category === value);
}

/** "Pets, Exclusives" -> ["pets", "exclusives"] */
function categoriesOf(product: Pick<Product, 'category'>): string[] {
  return product.category
    .split(',')
    .map((part) => part.trim().toLowerCase())
    .filter(Boolean);
}

/** True when any of the product's comma-separated categories is `category` (case-insensitive). */
export function matchesCategory(product: Pick<Product, 'category'>, category: string): boolean {
  const wanted = category.trim().toLowerCase();
  if (wanted === '' || wanted === ALL_CATEGORIES.toLowerCase()) return true;
  return categoriesOf(product).includes(wanted);
}

/** True when the name or the category contains the search text (case-insensitive). */
export function matchesSearch(
  product: Pick<Product, 'name' | 'category'>,
  search: string,
): boolean {
  const needle = search.trim().toLowerCase();
  if (needle === '') return true;
  return (
    product.name.toLowerCase().includes(needle) || product.category.toLowerCase().includes(needle)
  );
}

export function filterProducts<T extends Pick<Product, 'name' | 'category'>>(
  products: readonly T[],
  { category, search }: { category: string; search: string },
): T[] {
  return products.filter(
    (product) => matchesCategory(product, category) && matchesSearch(product, search),
  );
}
