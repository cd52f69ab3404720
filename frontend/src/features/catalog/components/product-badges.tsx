import { useTranslation } from 'react-i18next';
import { Badge } from '@/components/ui/badge';
import type { Product } from '@/types/api';

import './product-badges.css';

import { saveLabel, stockLabel, weightLabel } from '@/features/catalog/utils/product-labels';
import { useCurrency } from '@/lib/currency-choice';

type ProductBadgesProps = {
  product: Pick<Product, 'price' | 'savings' | 'stock' | 'weight' | 'mutation'>;
  /** The saving can be shown elsewhere (over the image on cards). */
  showSave?: boolean;
};

/** Weight, mutation, saving and stock, each only when it applies. */
export function ProductBadges({ product, showSave = true }: ProductBadgesProps) {
  const { t } = useTranslation();
  const { currency } = useCurrency();
  const save = showSave ? saveLabel(product, currency) : null;
  const weight = weightLabel(product.weight);
  const stock = stockLabel(product.stock);
  const mutation = product.mutation?.trim();

  if (!save && !weight && !stock && !mutation) return null;

  return (
    <ul className="product-badges" aria-label={t('product.details')}>
      {save ? (
        <li>
          <Badge tone="accent">{save}</Badge>
        </li>
      ) : null}
      {weight ? (
        <li>
          <Badge tone="neutral">{weight}</Badge>
        </li>
      ) : null}
      {mutation ? (
        <li>
          <Badge tone="special">{mutation}</Badge>
        </li>
      ) : null}
      {stock ? (
        <li>
          <Badge tone={product.stock === 0 ? 'danger' : 'warning'}>{stock}</Badge>
        </li>
      ) : null}
    </ul>
  );
}
