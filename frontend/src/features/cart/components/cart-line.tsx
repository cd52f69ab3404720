import i18next from 'i18next';
import { useTranslation } from 'react-i18next';
import { IconButton } from '@/components/ui/icon-button';
import { MinusIcon, PlusIcon, SproutIcon } from '@/components/ui/icons';
import type { AddResult, CartItem, OverCap } from '@/features/cart/stores/cart-store';
import { overCapNote } from '@/features/cart/utils/refusal-message';
import { capLabel, isUpcomingDrop } from '@/lib/drop';
import { formatLinePrice, formatUnitPrice } from '@/lib/currency';
import { useCurrency } from '@/lib/currency-choice';

/**
 * Why the plus button is off, or what to fix before checkout: the stock dropped, or the line
 * takes a drop past its cap with what the buyer's orders hold already.
 */
function LimitNote({
  item,
  oneMore,
  overCaps,
}: {
  item: CartItem;
  oneMore: AddResult;
  overCaps: readonly OverCap[];
}) {
  if (overCaps.length > 0) {
    return (
      <>
        {overCaps.map((over) => (
          <p key={over.drop.id} className="cart-line__limit cart-line__limit--problem">
            {overCapNote(item.id, over)}
          </p>
        ))}
      </>
    );
  }
  if (isUpcomingDrop(item))
    return <p className="cart-line__limit">{i18next.t('cart.line.notOnSale')}</p>;
  if (item.stock !== null && item.qty >= item.stock) {
    let note = i18next.t('cart.line.onlyInStock', { count: item.stock });
    if (item.stock <= 0) note = i18next.t('cart.line.soldOut');
    else if (item.qty > item.stock) {
      note = i18next.t('cart.line.onlyLeft', { count: item.stock });
    }
    return <p className="cart-line__limit">{note}</p>;
  }
  if (!oneMore.ok && oneMore.reason === 'account-limit') {
    const { drop, held } = oneMore;
    if (held > 0) {
      const values = { total: held, max: drop.max_per_account, name: drop.name, inCart: '' };
      return (
        <p className="cart-line__limit">
          {drop.id === item.id
            ? i18next.t('cart.line.heldOwn', values)
            : i18next.t('cart.line.heldOther', values)}
        </p>
      );
    }
    return <p className="cart-line__limit">{capLabel(drop, { held: drop.id !== item.id })}</p>;
  }
  return null;
}

type CartLineProps = {
  item: CartItem;
  /** Whether one more may go in (`checkAddable` over the whole cart): the plus button and its note. */
  oneMore: AddResult;
  /** The drops this line takes past their cap (`overCaps`): checkout would refuse the cart. */
  overCaps?: readonly OverCap[];
  onIncrement: () => void;
  onDecrement: () => void;
};

export function CartLine({
  item,
  oneMore,
  overCaps = [],
  onIncrement,
  onDecrement,
}: CartLineProps) {
  const { t } = useTranslation();
  const { currency } = useCurrency();
  const atLimit = !oneMore.ok;
  return (
    <li className="cart-line">
      <div className="cart-line__image">
        {item.image ? (
          <img src={item.image} alt={item.name} loading="lazy" decoding="async" />
        ) : (
          <div role="img" aria-label={item.name}>
            <SproutIcon size={24} />
          </div>
        )}
      </div>
      <div className="cart-line__info">
        <p className="cart-line__name">{item.name}</p>
        <p className="cart-line__unit">
          {t('cart.line.each', { price: formatUnitPrice(item.price, currency) })}
        </p>
        <div
          className="cart-line__qty"
          role="group"
          aria-label={t('cart.line.quantityOf', { name: item.name })}
        >
          <IconButton
            label={t('cart.line.decrease', { name: item.name })}
            size="sm"
            tone="brand"
            onClick={onDecrement}
          >
            <MinusIcon size={16} />
          </IconButton>
          <output
            className="cart-line__count"
            aria-live="polite"
            aria-label={t('cart.line.inCart', { count: item.qty })}
          >
            {item.qty}
          </output>
          <IconButton
            label={t('cart.line.increase', { name: item.name })}
            size="sm"
            tone="brand"
            disabled={atLimit}
            onClick={onIncrement}
          >
            <PlusIcon size={16} />
          </IconButton>
        </div>
        <LimitNote item={item} oneMore={oneMore} overCaps={overCaps} />
      </div>
      <p className="cart-line__total">{formatLinePrice(item.price, item.qty, currency)}</p>
    </li>
  );
}
