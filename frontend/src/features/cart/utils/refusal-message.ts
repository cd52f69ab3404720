import type { AddRefused, OverCap } from '@/features/cart/stores/cart-store';

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
      return refusal.held > 0
        ? `You already have ${refusal.held} of ${refusal.drop.max_per_account} ${refusal.drop.name}: the limit per account`
        : `Limit ${refusal.drop.max_per_account} ${refusal.drop.name} per account`;
  }
}

/**
 * What to fix on a cart line that takes a drop past its cap (`overCaps`): "You already have 1 of
 * 1: remove it before checkout", "You already have 1 of 3: lower the quantity to 2"; a bundle's
 * drop is named ("You already have 1 of 1 Dragon: …").
 */
export function overCapNote(lineId: number, over: OverCap): string {
  const { drop, held } = over;
  const own = drop.id === lineId;
  const name = own ? '' : ` ${drop.name}`;
  const lead =
    held > 0
      ? `You already have ${held} of ${drop.max_per_account}${name}`
      : `Limit ${drop.max_per_account}${name} per account`;
  const room = drop.max_per_account - held;
  if (room <= 0) return `${lead}: remove it before checkout`;
  return own ? `${lead}: lower the quantity to ${room}` : `${lead}: lower the quantity`;
}
