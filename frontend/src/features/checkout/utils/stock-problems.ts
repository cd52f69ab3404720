import type { CheckoutItem } from '@/features/checkout/types';

/** The heading of the alert that lists what must change before paying (spec §5). */
export const STOCK_PROBLEMS_TITLE = 'Please fix the following issues before continuing:';

type LiveStock = { id: number; stock: number | null };

/**
 * The spec's stock check before payment, against the live product list when it is known:
 * '- {name} is out of stock.' / '- {name} has only {stock} in stock, but you selected {qty}.'
 * A product gone from the live list (archived) is out of stock.
 */
export function stockProblems(
  items: readonly CheckoutItem[],
  liveProducts: readonly LiveStock[] | undefined,
): string[] {
  const live = liveProducts ? new Map(liveProducts.map((p) => [p.id, p.stock])) : null;
  return items.flatMap((item) => {
    const stock = live ? (live.has(item.id) ? (live.get(item.id) ?? null) : 0) : item.stock;
    if (stock === null) return [];
    if (stock <= 0) return [`- ${item.name} is out of stock.`];
    if (item.qty > stock)
      return [`- ${item.name} has only ${stock} in stock, but you selected ${item.qty}.`];
    return [];
  });
}
