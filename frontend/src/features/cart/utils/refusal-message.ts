import type { AddRefused } from '@/features/cart/stores/cart-store';

/** The toast for one more of `product` that the cart refused. */
export function refusalMessage(
  product: { name: string; stock: number | null },
  refusal: AddRefused,
): string {
  switch (refusal.reason) {
    case 'out-of-stock':
      return `${product.name} is out of stock`;
    case 'stock-limit':
      return `You already have all ${product.stock ?? 0} ${product.name} we have in stock`;
    case 'not-released':
      return `${product.name} is not on sale yet`;
    case 'account-limit':
      return `Limit ${refusal.drop.max_per_account} ${refusal.drop.name} per account`;
  }
}
