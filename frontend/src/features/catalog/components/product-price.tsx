import { useTranslation } from 'react-i18next';
import { formatUnitPrice, wholeSaving } from '@/lib/currency';
import { useCurrency } from '@/lib/currency-choice';
import type { Product } from '@/types/api';

import './product-price.css';

type ProductPriceProps = {
  product: Pick<Product, 'price' | 'savings'>;
  size?: 'md' | 'lg';
};

/** "$24.99" (in the shopper's currency), the original price struck through when there is a saving. */
export function ProductPrice({ product, size = 'md' }: ProductPriceProps) {
  const { t } = useTranslation();
  const { currency } = useCurrency();
  const hasSaving = wholeSaving(product.price, product.savings, currency) !== null;
  return (
    <p className={`product-price product-price--${size}`}>
      <span className="product-price__current">{formatUnitPrice(product.price, currency)}</span>
      {hasSaving && product.savings !== null ? (
        <s className="product-price__was">
          <span className="visually-hidden">{t('product.was')} </span>
          {formatUnitPrice(product.savings, currency)}
        </s>
      ) : null}
    </p>
  );
}
