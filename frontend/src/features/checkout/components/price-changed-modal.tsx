import { useRef } from 'react';

import { Button } from '@/components/ui/button';
import { AlertIcon } from '@/components/ui/icons';
import { Modal } from '@/components/ui/modal';
import type { ServerPricedCart } from '@/features/checkout/types';
import { formatPrice } from '@/lib/money';

type PriceChangedModalProps = {
  /** The cart as the server priced it; null when closed. */
  cart: ServerPricedCart | null;
  message: string;
  onCancel: () => void;
  onConfirm: () => void;
  confirming: boolean;
};

/** The server's fresh prices, shown before the shopper agrees to pay them. */
export function PriceChangedModal({
  cart,
  message,
  onCancel,
  onConfirm,
  confirming,
}: PriceChangedModalProps) {
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
      title="Please review your order"
      footer={
        <>
          <Button ref={cancelRef} variant="secondary" onClick={onCancel} disabled={confirming}>
            Cancel
          </Button>
          <Button onClick={onConfirm} loading={confirming}>
            {confirming
              ? 'Processing...'
              : `Confirm and pay ${formatPrice(cart?.grand_total ?? 0)}`}
          </Button>
        </>
      }
    >
      {cart ? (
        <>
          <p>{message}</p>
          <ul className="order-lines" aria-label="Your order at today's prices">
            {cart.lines.map((line) => (
              <li key={line.id} className="order-lines__line">
                <span className="order-lines__name">{line.name}</span>
                <span className="order-lines__qty" aria-label={`Quantity ${line.qty}`}>
                  × {line.qty}
                </span>
                <span className="order-lines__price">{formatPrice(line.line_total)}</span>
              </li>
            ))}
          </ul>
          <dl className="price-breakdown">
            <div className="price-breakdown__row">
              <dt>Subtotal</dt>
              <dd>{formatPrice(cart.subtotal)}</dd>
            </div>
            {cart.discount > 0 ? (
              <div className="price-breakdown__row price-breakdown__row--discount">
                <dt>Discount{cart.discount_percent ? ` (${cart.discount_percent}%)` : ''}</dt>
                <dd>−{formatPrice(cart.discount)}</dd>
              </div>
            ) : null}
            <div className="price-breakdown__row">
              <dt>Processing fee</dt>
              <dd>{formatPrice(cart.fee)}</dd>
            </div>
            <div className="price-breakdown__row price-breakdown__row--total">
              <dt>Total</dt>
              <dd data-testid="fresh-total">{formatPrice(cart.grand_total)}</dd>
            </div>
          </dl>
        </>
      ) : null}
    </Modal>
  );
}
