import { useTranslation } from 'react-i18next';
import type { Ref } from 'react';

import { CartIcon } from '@/components/ui/icons';
import { selectTotalQuantity, useCartStore } from '@/features/cart/stores/cart-store';

import './cart-button.css';

type CartButtonProps = {
  ref?: Ref<HTMLButtonElement>;
};

/** "Your Cart" with a badge of the total quantity; opens the drawer. */
export function CartButton({ ref }: CartButtonProps) {
  const { t } = useTranslation();
  const count = useCartStore(selectTotalQuantity);
  const isOpen = useCartStore((state) => state.isOpen);
  const open = useCartStore((state) => state.open);

  return (
    <button
      ref={ref}
      type="button"
      className="cart-button"
      aria-label={t('cart.buttonLabel', { count })}
      aria-haspopup="dialog"
      aria-expanded={isOpen}
      onClick={open}
    >
      <CartIcon size={22} />
      <span className="cart-button__label">{t('cart.title')}</span>
      <span className="cart-button__badge" data-testid="cart-count" data-empty={count === 0}>
        {count}
      </span>
    </button>
  );
}
