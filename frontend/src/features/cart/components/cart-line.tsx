import { IconButton } from '@/components/ui/icon-button';
import { MinusIcon, PlusIcon, SproutIcon } from '@/components/ui/icons';
import type { AddResult, CartItem, OverCap } from '@/features/cart/stores/cart-store';
import { overCapNote } from '@/features/cart/utils/refusal-message';
import { capLabel, isUpcomingDrop } from '@/lib/drop';
import { formatPrice, lineTotal } from '@/lib/money';

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
    return <p className="cart-line__limit">Not on sale yet: it drops soon</p>;
  if (item.stock !== null && item.qty >= item.stock) {
    let note = `Only ${item.stock} in stock`;
    if (item.stock <= 0) note = 'Sold out: remove it before checkout';
    else if (item.qty > item.stock) note = `Only ${item.stock} left: lower the quantity`;
    return <p className="cart-line__limit">{note}</p>;
  }
  if (!oneMore.ok && oneMore.reason === 'account-limit') {
    const { drop, held } = oneMore;
    if (held > 0) {
      const name = drop.id === item.id ? '' : ` ${drop.name}`;
      return (
        <p className="cart-line__limit">{`You already have ${held} of ${drop.max_per_account}${name}`}</p>
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
        <LimitNote item={item} oneMore={oneMore} overCaps={overCaps} />
      </div>
      <p className="cart-line__total">{formatPrice(lineTotal(item.price, item.qty))}</p>
    </li>
  );
}
