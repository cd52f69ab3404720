import { useTranslation } from 'react-i18next';
import { useRef } from 'react';

import { Button } from '@/components/ui/button';
import { AlertIcon } from '@/components/ui/icons';
import { Modal } from '@/components/ui/modal';
import type { ServerPricedCart } from '@/features/checkout/types';
import { currentLanguage } from '@/lib/i18n/format';
import { formatMoney } from '@/lib/money';

type PriceChangedModalProps = {
  /** The cart as the server priced it; null when closed. */
  cart: ServerPricedCart | null;
  message: string;
  onCancel: () => void;
  onConfirm: () => void;
  confirming: boolean;
};

/** The cart's amounts at today's prices and rate, in the shopper's currency, as the server priced them. */
function FreshBreakdown({ cart }: { cart: NonNullable<PriceChangedModalProps['cart']> }) {
  const { t } = useTranslation();
  const { paid } = cart;
  const money = (amount: number) => formatMoney(amount, cart.currency);
  return (
    <dl className="price-breakdown">
      <div className="price-breakdown__row">
        <dt>{t('checkout.subtotal')}</dt>
        <dd>{money(paid.subtotal)}</dd>
      </div>
      {paid.discount > 0 ? (
        <div className="price-breakdown__row price-breakdown__row--discount">
          <dt>
            {cart.discount_percent
              ? t('checkout.discountPercent', {
                  percent: new Intl.NumberFormat(currentLanguage(), {
                    style: 'percent',
                  }).format(cart.discount_percent / 100),
                })
              : t('checkout.discount')}
          </dt>
          <dd>−{money(paid.discount)}</dd>
        </div>
      ) : null}
      <div className="price-breakdown__row">
        <dt>{t('checkout.fee')}</dt>
        <dd>{money(paid.fee)}</dd>
      </div>
      <div className="price-breakdown__row price-breakdown__row--total">
        <dt>{t('checkout.total')}</dt>
        <dd data-testid="fresh-total">{money(paid.grand_total)}</dd>
      </div>
    </dl>
  );
}

/** The server's fresh prices, shown before the shopper agrees to pay them. */
export function PriceChangedModal({
  cart,
  message,
  onCancel,
  onConfirm,
  confirming,
}: PriceChangedModalProps) {
  const { t } = useTranslation();
  const cancelRef = useRef<HTMLButtonElement>(null);
  return (
    <Modal
      open={cart !== null}
      onClose={() => {
        if (!confirming) onCancel();
      }}
      role="alertdialog"
      initialFocusRef={cancelRef}
      icon={<AlertIcon size={22} />}
      title={t('checkout.priceChanged.title')}
      footer={
        <>
          <Button ref={cancelRef} variant="secondary" onClick={onCancel} disabled={confirming}>
            {t('common.cancel')}
          </Button>
          <Button onClick={onConfirm} loading={confirming}>
            {confirming
              ? t('checkout.method.processing')
              : t('checkout.priceChanged.confirm', {
                  total: cart ? formatMoney(cart.paid.grand_total, cart.currency) : '',
                })}
          </Button>
        </>
      }
    >
      {cart ? (
        <>
          <p>{message}</p>
          <ul className="order-lines" aria-label={t('checkout.priceChanged.lines')}>
            {cart.lines.map((line) => (
              <li key={line.id} className="order-lines__line">
                <span className="order-lines__name">{line.name}</span>
                <span
                  className="order-lines__qty"
                  aria-label={t('checkout.quantity', { count: line.qty })}
                >
                  × {line.qty}
                </span>
                <span className="order-lines__price">
                  {formatMoney(line.unit_price_paid * line.qty, cart.currency)}
                </span>
              </li>
            ))}
          </ul>
          <FreshBreakdown cart={cart} />
        </>
      ) : null}
    </Modal>
  );
}
