import i18next from 'i18next';
/** Stock semantics shared by the catalogue and the cart: null = unlimited, 0 = out of stock. */

export function isOutOfStock(product: { stock: number | null }): boolean {
  return product.stock !== null && product.stock <= 0;
}

/** Whether one more can go into a cart that already holds `qty` of the product. */
export function canAddOneMore(product: { stock: number | null }, qty: number): boolean {
  return product.stock === null || qty < product.stock;
}

/** A cart line as the stock check before payment sees it. */
export type StockCheckLine = { name: string; qty: number; stock: number | null };

/**
 * The stock check before payment (docs/product.md, Validation), one message per line whose finite stock cannot
 * cover the quantity, in cart order: '- {name} is out of stock.' or
 * '- {name} has only {stock} in stock, but you selected {qty}.' The server's `check_stock`
 * words it the same; shared test vectors pin both.
 */
export function stockProblemMessages(lines: readonly StockCheckLine[]): string[] {
  return lines.flatMap(({ name, qty, stock }) => {
    if (stock === null) return [];
    if (stock <= 0) return [i18next.t('checkout.stock.out', { name })];
    if (qty > stock) {
      return [i18next.t('checkout.stock.short', { name, count: stock, qty })];
    }
    return [];
  });
}
