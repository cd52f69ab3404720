/** Stock semantics shared by the catalogue and the cart: null = unlimited, 0 = out of stock. */

export function isOutOfStock(product: { stock: number | null }): boolean {
  return product.stock !== null && product.stock <= 0;
}

/** Whether one more can go into a cart that already holds `qty` of the product. */
export function canAddOneMore(product: { stock: number | null }, qty: number): boolean {
  return product.stock === null || qty < product.stock;
}
