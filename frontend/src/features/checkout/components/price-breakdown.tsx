import { useTranslation } from 'react-i18next';
import { fromCents, type CheckoutAmounts } from '@/lib/checkout-amounts';
import { currentLanguage } from '@/lib/i18n/format';
import { formatPrice } from '@/lib/money';

type PriceBreakdownProps = {
  amounts: CheckoutAmounts;
  discountPercent: number;
};

/** Subtotal, the promo discount, the card processing fee and what the shopper pays. */
export function PriceBreakdown({ amounts, discountPercent }: PriceBreakdownProps) {
  const { t } = useTranslation();
  return (
    <dl className="price-breakdown">
      <div className="price-breakdown__row">
        <dt>{t('checkout.subtotal')}</dt>
        <dd data-testid="checkout-subtotal">{formatPrice(fromCents(amounts.subtotalCents))}</dd>
      </div>
      <div className="price-breakdown__row price-breakdown__row--discount">
        <dt>
          {discountPercent > 0
            ? t('checkout.discountPercent', {
                percent: new Intl.NumberFormat(currentLanguage(), { style: 'percent' }).format(
                  discountPercent / 100,
                ),
              })
            : t('checkout.discount')}
        </dt>
        <dd data-testid="checkout-discount">
          {amounts.discountCents > 0 ? '−' : ''}
          {formatPrice(fromCents(amounts.discountCents))}
        </dd>
      </div>
      <div className="price-breakdown__row">
        <dt>{t('checkout.fee')}</dt>
        <dd data-testid="checkout-fee">{formatPrice(fromCents(amounts.feeCents))}</dd>
      </div>
      <div className="price-breakdown__row price-breakdown__row--total">
        <dt>{t('checkout.total')}</dt>
        <dd data-testid="checkout-total">{formatPrice(fromCents(amounts.grandTotalCents))}</dd>
      </div>
    </dl>
  );
}
