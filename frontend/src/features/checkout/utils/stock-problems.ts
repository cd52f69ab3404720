import i18next from 'i18next';
import type { CheckoutItem } from '@/features/checkout/types';
import { stockProblemMessages } from '@/lib/stock';

/** The heading of the alert that lists what must change before paying (docs/product.md, Validation). */
export const STOCK_PROBLEMS_TITLE = () => i18next.t('checkout.stockProblemsTitle');

type LiveStock = { id: number; stock: number | null };

/**
 * The spec's stock check before payment (lib/stock's `stockProblemMessages`), against the live
 * product list when it is known. A product gone from the live list (archived) is out of stock.
 */
export function stockProblems(
  items: readonly CheckoutItem[],
  liveProducts: readonly LiveStock[] | undefined,
): string[] {
  const live = liveProducts ? new Map(liveProducts.map((p) => [p.id, p.stock])) : null;
  return stockProblemMessages(
    items.map((item) => ({
      name: item.name,
      qty: item.qty,
      stock: live ? (live.has(item.id) ? (live.get(item.id) ?? null) : 0) : item.stock,
    })),
  );
}
