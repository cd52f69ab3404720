/** The inventory box keeps digits only (docs/product.md, Validation): "1a2" -> "12", "-3" -> "3". */
export function digitsOnly(text: string): string {
  return text.replace(/\D/g, '');
}

/** Empty means 0 (docs/product.md, Validation). */
export function parseInventory(text: string): number {
  const digits = digitsOnly(text);
  return digits === '' ? 0 : Number.parseInt(digits, 10);
}

/** 'Out of Stock' at 0 or less, else 'N in Stock'; null stock is unlimited. */
export function inventoryLabel(stock: number | null): string {
  if (stock === null) return 'Unlimited';
  return stock <= 0 ? 'Out of Stock' : `${stock} in Stock`;
}
