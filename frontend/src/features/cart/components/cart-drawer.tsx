import { useTranslation } from 'react-i18next';
import type { RefObject } from 'react';
import { useNavigate } from 'react-router';

import { Button } from '@/components/ui/button';
import { Drawer } from '@/components/ui/drawer';
import { CartIcon, TrashIcon } from '@/components/ui/icons';
import { toast } from '@/components/ui/toast';
import { paths } from '@/config/paths';
import { CartLine } from '@/features/cart/components/cart-line';
import {
  checkAddable,
  overCaps,
  selectTotalQuantity,
  useCartStore,
} from '@/features/cart/stores/cart-store';
import { refusalMessage } from '@/features/cart/utils/refusal-message';
import { formatSubtotal } from '@/lib/currency';
import { useCurrency } from '@/lib/currency-choice';

import './cart-drawer.css';

type CartDrawerProps = {
  /** The navbar's cart button: focus goes back to it when the drawer closes. */
  returnFocusRef?: RefObject<HTMLElement | null>;
};

/** The total, what is left for checkout, Clear Cart and Checkout (refused over a limit). */
function CartSummary({
  total,
  totalQuantity,
  overLimit,
  onClear,
  onCheckout,
}: {
  /** The lines' sum, written in the shopper's currency. */
  total: string;
  totalQuantity: number;
  overLimit: boolean;
  onClear: () => void;
  onCheckout: () => void;
}) {
  const { t } = useTranslation();
  return (
    <div className="cart-summary">
      <dl className="cart-summary__total">
        <dt>{t('cart.totalPrice')}</dt>
        <dd data-testid="cart-total">{total}</dd>
      </dl>
      <p className="cart-summary__note">{t('cart.summaryNote', { count: totalQuantity })}</p>
      <div className="cart-summary__actions">
        <Button variant="danger" startIcon={<TrashIcon size={18} />} onClick={onClear}>
          {t('cart.clear')}
        </Button>
        <Button
          disabled={overLimit}
          aria-describedby={overLimit ? 'cart-over-limit' : undefined}
          onClick={onCheckout}
        >
          {t('cart.checkout')}
        </Button>
      </div>
      {overLimit ? (
        <p id="cart-over-limit" className="cart-summary__problem" role="status">
          {t('cart.overLimit')}
        </p>
      ) : null}
    </div>
  );
}

function EmptyCart({ onBrowse }: { onBrowse: () => void }) {
  const { t } = useTranslation();
  return (
    <div className="cart-empty">
      <div className="cart-empty__icon">
        <CartIcon size={32} />
      </div>
      <p className="cart-empty__title">{t('cart.empty')}</p>
      <p className="cart-empty__text">{t('cart.emptyText')}</p>
      <Button variant="secondary" onClick={onBrowse}>
        {t('cart.browse')}
      </Button>
    </div>
  );
}

export function CartDrawer({ returnFocusRef }: CartDrawerProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const hydrated = useCartStore((state) => state.hydrated);
  const isOpen = useCartStore((state) => state.isOpen);
  const items = useCartStore((state) => state.items);
  const caps = useCartStore((state) => state.caps);
  const held = useCartStore((state) => state.held);
  const { currency } = useCurrency();
  const totalQuantity = useCartStore(selectTotalQuantity);
  const { close, clear, increment, decrement } = useCartStore.getState();

  // The cart shows only once the saved cart has been read (docs/product.md, Behaviour).
  if (!hydrated) return null;

  const problems = new Map(items.map((item) => [item.id, overCaps(item, items, caps, held)]));
  const overLimit = [...problems.values()].some((over) => over.length > 0);

  const goTo = (href: string) => {
    close();
    void navigate(href);
  };

  const footer =
    items.length > 0 ? (
      <CartSummary
        total={formatSubtotal(items, currency)}
        totalQuantity={totalQuantity}
        overLimit={overLimit}
        onClear={() => {
          clear();
          toast.info(t('cart.cleared'));
        }}
        onCheckout={() => goTo(paths.checkout.getHref())}
      />
    ) : undefined;

  return (
    <Drawer
      open={isOpen}
      onClose={close}
      title={t('cart.title')}
      footer={footer}
      returnFocusRef={returnFocusRef}
    >
      {items.length === 0 ? (
        <EmptyCart onBrowse={() => goTo(paths.home.getHref())} />
      ) : (
        <ul className="cart-lines" aria-label={t('cart.items')}>
          {items.map((item) => (
            <CartLine
              key={item.id}
              item={item}
              oneMore={checkAddable(item, items, caps, held)}
              overCaps={problems.get(item.id)}
              onIncrement={() => {
                const result = increment(item.id);
                if (!result.ok) toast.error(refusalMessage(item, result));
              }}
              onDecrement={() => decrement(item.id)}
            />
          ))}
        </ul>
      )}
    </Drawer>
  );
}
