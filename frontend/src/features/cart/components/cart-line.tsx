import { IconButton } from '@/components/ui/icon-button';
import { MinusIcon, PlusIcon, SproutIcon } from '@/components/ui/icons';
import type { AddResult, CartItem } from '@/features/cart/stores/cart-store';
import { capLabel, isUpcomingDrop } from '@/lib/drop';
import { formatPrice, lineTotal } from '@/lib/money';

/** Why the plus button is off, or what to fix before checkout when the stock dropped. */
function LimitNote({ item, oneMore }: { item: CartItem; oneMore: AddResult }) {
  if (isUpcomingDrop(item))
    return <p className="cart-line__limit">Not on sale yet: it drops soon</p>;
  if (item.stock !== null && item.qty >= item.stock) {
    let note = `Only ${item.stock} in stock`;
    if (item.stock <= 0) note = 'Sold out: remove it before checkout';
    else if (item.qty > item.stock) note = `Only ${item.stock} left: lower the quantity`;
    return <p className="cart-line__limit">{note}</p>;
  }
  if (!oneMore.ok && oneMore.reason === 'account-limit') {
    const { drop } = oneMore;
    return <p className="cart-line__limit">{capLabel(drop, { held: drop.id !== item.id })}</p>;
  }
  return null;
}

type CartLineProps = {
  item: CartItem;
  /** Whether one more may go in (`checkAddable` over the whole cart): the plus button and its note. */
  oneMore: AddResult;
  onIncrement: () => void;
  onDecrement: () => void;
};

export function CartLine({ item, oneMore, onIncrement, onDecrement }: CartLineProps) {
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
        <p className="cart-line__unit">{formatPrice(item.price)} each</p>
        <div className="cart-line__qty" role="group" aria-label={`Quantity of ${item.name}`}>
          <IconButton
            label={`Decrease quantity of ${item.name}`}
            size="sm"
            tone="brand"
            onClick={onDecrement}
          >
            <MinusIcon size={16} />
          </IconButton>
          <output
            className="cart-line__count"
            aria-live="polite"
            aria-label={`${item.qty} in cart`}
          >
            {item.qty}
          </output>
          <IconButton
            label={`Increase quantity of ${item.name}`}
            size="sm"
            tone="brand"
            disabled={atLimit}
            onClick={onIncrement}
          >
            <PlusIcon size={16} />
          </IconButton>
        </div>
        <LimitNote item={item} oneMore={oneMore} />
      </div>
      <p className="cart-line__total">{formatPrice(lineTotal(item.price, item.qty))}</p>
    </li>
  );
}
