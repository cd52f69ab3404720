import { useTranslation } from 'react-i18next';
import { formatMinor, type Charge, type Currency } from '@/lib/currency';
import { currentLanguage } from '@/lib/i18n/format';

type PriceBreakdownProps = {
  /** In minor units of `currency`. */
  amounts: Charge;
  currency: Currency;
  discountPercent: number;
};

/** Subtotal, the promo discount, the card processing fee and what the shopper pays. */
export function PriceBreakdown({ amounts, currency, discountPercent }: PriceBreakdownProps) {
  const { t } = useTranslation();
  return (
    <dl className="price-breakdown">
      <div className="price-breakdown__row">
        <dt>{t('checkout.subtotal')}</dt>
        <dd data-testid="checkout-subtotal">{formatMinor(amounts.subtotal, currency)}</dd>
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
          {amounts.discount > 0 ? '−' : ''}
          {formatMinor(amounts.discount, currency)}
        </dd>
      </div>
      <div className="price-breakdown__row">
        <dt>{t('checkout.fee')}</dt>
        <dd data-testid="checkout-fee">{formatMinor(amounts.fee, currency)}</dd>
      </div>
      <div className="price-breakdown__row price-breakdown__row--total">
        <dt>{t('checkout.total')}</dt>
        <dd data-testid="checkout-total">{formatMinor(amounts.grandTotal, currency)}</dd>
      </div>
    </dl>
  );
}
