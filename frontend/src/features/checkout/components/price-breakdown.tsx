import { fromCents, type CheckoutAmounts } from '@/lib/checkout-amounts';
import { formatPrice } from '@/lib/money';

type PriceBreakdownProps = {
  amounts: CheckoutAmounts;
  discountPercent: number;
};

/** Subtotal, the promo discount, the card processing fee and what the shopper pays. */
export function PriceBreakdown({ amounts, discountPercent }: PriceBreakdownProps) {
  return (
    <dl className="price-breakdown">
      <div className="price-breakdown__row">
        <dt>Subtotal</dt>
        <dd data-testid="checkout-subtotal">{formatPrice(fromCents(amounts.subtotalCents))}</dd>
      </div>
      <div className="price-breakdown__row price-breakdown__row--discount">
        <dt>Discount{discountPercent > 0 ? ` (${discountPercent}%)` : ''}</dt>
        <dd data-testid="checkout-discount">
          {amounts.discountCents > 0 ? '−' : ''}
          {formatPrice(fromCents(amounts.discountCents))}
        </dd>
      </div>
      <div className="price-breakdown__row">
        <dt>Processing fee</dt>
        <dd data-testid="checkout-fee">{formatPrice(fromCents(amounts.feeCents))}</dd>
      </div>
      <div className="price-breakdown__row price-breakdown__row--total">
        <dt>Total</dt>
        <dd data-testid="checkout-total">{formatPrice(fromCents(amounts.grandTotalCents))}</dd>
      </div>
    </dl>
  );
}
