import { useTranslation } from 'react-i18next';
import { Skeleton } from '@/components/ui/skeleton';

import './product-details.css';

export function ProductDetailsSkeleton() {
  const { t } = useTranslation();
  return (
    <div className="product-details" role="status" aria-label={t('product.loading')}>
      <Skeleton
        height="auto"
        radius="var(--radius-xl)"
        className="product-details__skeleton-media"
      />
      <div className="product-details__info">
        <Skeleton width="30%" height="0.9rem" />
        <Skeleton width="70%" height="2.5rem" />
        <Skeleton width="35%" height="2rem" />
        <Skeleton width="60%" height="1.75rem" radius="var(--radius-full)" />
        <Skeleton height="5rem" />
        <Skeleton height="52px" radius="var(--radius-lg)" />
      </div>
    </div>
  );
}
