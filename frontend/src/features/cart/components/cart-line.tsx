import { IconButton } from '@/components/ui/icon-button';
import { MinusIcon, PlusIcon, SproutIcon } from '@/components/ui/icons';
import { canIncrease, type CartItem } from '@/features/cart/stores/cart-store';
import { formatPrice, lineTotal } from '@/lib/money';

/** Why the plus button is off, or what to fix before checkout when the stock dropped. */
function StockNote({ item }: { item: CartItem }) {
  if (item.stock === null || item.qty < item.stock) return null;
  let note = `Only ${item.stock} in stock`;
  if (item.stock <= 0) note = 'Sold out: remove it before checkout';
  else if (item.qty > item.stock) note = `Only ${item.stock} left: lower the quantity`;
  return <p className="cart-line__limit">{note}</p>;
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
        <StockNote item={item} />
      </div>
      <p className="cart-line__total">{formatPrice(lineTotal(item.price, item.qty))}</p>
    </li>
  );
}
