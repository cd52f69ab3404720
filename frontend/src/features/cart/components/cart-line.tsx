import { IconButton } from '@/components/ui/icon-button';
import { MinusIcon, PlusIcon, SproutIcon } from '@/components/ui/icons';
import { canIncrease, type CartItem } from '@/features/cart/stores/cart-store';
import { isUpcomingDrop } from '@/lib/drop';
import { formatPrice, lineTotal } from '@/lib/money';

/** Why the plus button is off, or what to fix before checkout when the stock dropped. */
function LimitNote({ item }: { item: CartItem }) {
  if (isUpcomingDrop(item))
    return <p className="cart-line__limit">Not on sale yet: it drops soon</p>;
  if (item.stock !== null && item.qty >= item.stock) {
    let note = `Only ${item.stock} in stock`;
    if (item.stock <= 0) note = 'Sold out: remove it before checkout';
    else if (item.qty > item.stock) note = `Only ${item.stock} left: lower the quantity`;
    return <p className="cart-line__limit">{note}</p>;
  }
  if (item.max_per_account && item.qty >= item.max_per_account) {
    return <p className="cart-line__limit">Limit {item.max_per_account} per Discord account</p>;
  }
  return null;
}

type CartLineProps = {
  item: CartItem;
  onIncrement: () => void;
  onDecrement: () => void;
};

export function CartLine({ item, onIncrement, onDecrement }: CartLineProps) {
  const atLimit = !canIncrease(item);
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
        <LimitNote item={item} />
      </div>
      <p className="cart-line__total">{formatPrice(lineTotal(item.price, item.qty))}</p>
    </li>
  );
}
