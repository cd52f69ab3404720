import { Skeleton } from '@/components/ui/skeleton';

import './product-card.css';

export function ProductCardSkeleton() {
  return (
    <div className="product-card product-card--skeleton" aria-hidden="true">
      <Skeleton
        height="auto"
        radius="var(--radius-lg) var(--radius-lg) 0 0"
        className="product-card__skeleton-media"
      />
      <div className="product-card__body">
        <Skeleton width="40%" height="0.75rem" />
        <Skeleton width="80%" height="1.25rem" />
        <Skeleton width="55%" height="1.5rem" radius="var(--radius-full)" />
        <Skeleton width="35%" height="1.5rem" />
        <Skeleton height="36px" radius="var(--radius-md)" />
      </div>
    </div>
  );
}
