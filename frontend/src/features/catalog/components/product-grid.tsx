import { useTranslation } from 'react-i18next';
import type { ReactNode } from 'react';

import { ProductCardSkeleton } from '@/features/catalog/components/product-card-skeleton';

import './product-grid.css';

type ProductGridProps = {
  children: ReactNode;
  /** Names the list for screen readers, e.g. "Products". */
  label: string;
};

/** 2 columns on phones, 3 on tablets, 4 on wide screens. */
export function ProductGrid({ children, label }: ProductGridProps) {
  return (
    <ul className="product-grid" aria-label={label}>
      {children}
    </ul>
  );
}

export function ProductGridSkeleton({ count = 8 }: { count?: number }) {
  const { t } = useTranslation();
  return (
    <div className="product-grid" role="status" aria-label={t('catalog.loadingProducts')}>
      {Array.from({ length: count }, (_, index) => (
        <ProductCardSkeleton key={index} />
      ))}
    </div>
  );
}
