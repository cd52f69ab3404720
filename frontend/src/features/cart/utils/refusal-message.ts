import i18next from 'i18next';
import type { AddRefused, OverCap } from '@/features/cart/stores/cart-store';

/** The toast for one more of `product` that the cart refused. */
export function refusalMessage(
  product: { name: string; stock: number | null },
  refusal: AddRefused,
): string {
  switch (refusal.reason) {
    case 'out-of-stock':
      return i18next.t('cart.refused.outOfStock', { name: product.name });
    case 'stock-limit':
      return i18next.t('cart.refused.stockLimit', {
        count: product.stock ?? 0,
        name: product.name,
      });
    case 'not-released':
      return i18next.t('cart.refused.notReleased', { name: product.name });
    case 'account-limit':
      return refusal.held > 0
        ? i18next.t('cart.refused.held', {
            total: refusal.held,
            max: refusal.drop.max_per_account,
            name: refusal.drop.name,
          })
        : i18next.t('cart.refused.cap', {
            count: refusal.drop.max_per_account,
            name: refusal.drop.name,
          });
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
  const values = { total: held, max: drop.max_per_account, name: drop.name, inCart: '' };
  let lead: string;
  if (held > 0) {
    lead = own ? i18next.t('cart.line.heldOwn', values) : i18next.t('cart.line.heldOther', values);
  } else {
    lead = own
      ? i18next.t('drop.cap', { count: drop.max_per_account })
      : i18next.t('cart.line.capOther', { count: drop.max_per_account, name: drop.name });
  }
  const room = drop.max_per_account - held;
  if (room <= 0) return i18next.t('cart.line.removeIt', { lead });
  return own
    ? i18next.t('cart.line.lowerTo', { lead, count: room })
    : i18next.t('cart.line.lower', { lead });
}
