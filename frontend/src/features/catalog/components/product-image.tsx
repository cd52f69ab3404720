import { useState } from 'react';

import { SproutIcon } from '@/components/ui/icons';
import type { Product } from '@/types/api';

import './product-image.css';

type ProductImageProps = {
  product: Pick<Product, 'name' | 'image'>;
  size?: 'card' | 'detail' | 'thumb';
  /** Above-the-fold images load eagerly. */
  eager?: boolean;
};

/** The product picture on a soft garden background; a sprout when there is none. */
export function ProductImage({ product, size = 'card', eager = false }: ProductImageProps) {
  const [failedSrc, setFailedSrc] = useState<string | null>(null);
  const src = product.image && product.image !== failedSrc ? product.image : null;

  return (
    <div className={`product-image product-image--${size}`}>
      {src ? (
        <img
          src={src}
          alt={product.name}
          loading={eager ? 'eager' : 'lazy'}
          decoding="async"
          onError={() => setFailedSrc(src)}
        />
      ) : (
        <div className="product-image__fallback" role="img" aria-label={product.name}>
          <SproutIcon size={size === 'thumb' ? 24 : 56} />
        </div>
      )}
    </div>
  );
}
