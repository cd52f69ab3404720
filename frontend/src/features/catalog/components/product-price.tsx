import { useTranslation } from 'react-i18next';
import { formatPrice, roundedSaving } from '@/lib/money';
import type { Product } from '@/types/api';

import './product-price.css';

type ProductPriceProps = {
  product: Pick<Product, 'price' | 'savings'>;
  size?: 'md' | 'lg';
};

/** "$24.99", with the original price struck through when there is a saving. */
export function ProductPrice({ product, size = 'md' }: ProductPriceProps) {
  const { t } = useTranslation();
  const hasSaving = roundedSaving(product.price, product.savings) !== null;
  return (
    <p className={`product-price product-price--${size}`}>
      <span className="product-price__current">{formatPrice(product.price)}</span>
      {hasSaving && product.savings !== null ? (
        <s className="product-price__was">
          <span className="visually-hidden">{t('product.was')} </span>
          {formatPrice(product.savings)}
        </s>
      ) : null}
    </p>
  );
}
