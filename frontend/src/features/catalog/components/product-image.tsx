import { useState } from 'react';

import { SproutIcon } from '@/components/ui/icons';
import { pictureSources } from '@/features/catalog/utils/picture-sources';
import type { Product } from '@/types/api';

import './product-image.css';

type ProductImageProps = {
  product: Pick<Product, 'name' | 'image'>;
  size?: 'card' | 'detail' | 'thumb';
  /** Above-the-fold images load eagerly. */
  eager?: boolean;
  /** The page's largest picture (the first card, the product page's picture): fetched first. */
  priority?: boolean;
};

/** The product picture on a soft garden background; a sprout when there is none. */
export function ProductImage({
  product,
  size = 'card',
  eager = false,
  priority = false,
}: ProductImageProps) {
  const [failed, setFailed] = useState<string | null>(null);
  // A WebP copy that cannot be loaded falls back to the stored PNG, then to the sprout.
  const usePng = product.image !== null && failed === product.image;
  const sources = product.image
    ? usePng
      ? { src: product.image }
      : pictureSources(product.image, size)
    : null;
  const gone = product.image !== null && failed === `png:${product.image}`;

  return (
    <div className={`product-image product-image--${size}`}>
      {sources && !gone ? (
        <img
          src={sources.src}
          srcSet={sources.srcSet}
          sizes={sources.sizes}
          alt={product.name}
          loading={eager || priority ? 'eager' : 'lazy'}
          fetchPriority={priority ? 'high' : undefined}
          decoding={priority ? 'sync' : 'async'}
          onError={() => setFailed(usePng ? `png:${product.image}` : product.image)}
        />
      ) : (
        <div className="product-image__fallback" role="img" aria-label={product.name}>
          <SproutIcon size={size === 'thumb' ? 24 : 56} />
        </div>
      )}
    </div>
  );
}
