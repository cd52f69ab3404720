import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { CartIcon } from '@/components/ui/icons';
import { paths } from '@/config/paths';
import { DropCountdown } from '@/features/catalog/components/drop-countdown';
import { ProductBadges } from '@/features/catalog/components/product-badges';
import { ProductImage } from '@/features/catalog/components/product-image';
import { ProductPrice } from '@/features/catalog/components/product-price';
import { categoryLabel, saveLabel } from '@/features/catalog/utils/product-labels';
import { isUpcomingDrop } from '@/lib/drop';
import { isOutOfStock } from '@/lib/stock';
import type { Product } from '@/types/api';
import { useCurrency } from '@/lib/currency-choice';

import './product-card.css';

type ProductCardProps = {
  product: Product;
  onAddToCart: (product: Product) => void;
  /** The first row of the grid loads its images eagerly. */
  eager?: boolean;
  /** The first card's picture is the page's largest: fetched first. */
  priority?: boolean;
};

export function ProductCard({
  product,
  onAddToCart,
  eager = false,
  priority = false,
}: ProductCardProps) {
  const { t } = useTranslation();
  const soldOut = isOutOfStock(product);
  const upcoming = isUpcomingDrop(product);
  const { currency } = useCurrency();
  const save = saveLabel(product, currency);
  // Before its release a drop is listed but not sold (the badge over the picture counts down).
  const label = upcoming
    ? t('product.dropsSoon')
    : soldOut
      ? t('product.outOfStock')
      : t('product.addToCart');
  const href = paths.product.getHref(product.id);
  const category = categoryLabel(product.category);

  return (
    <article className={`product-card${soldOut ? ' product-card--sold-out' : ''}`}>
      <div className="product-card__media">
        <ProductImage product={product} eager={eager} priority={priority} />
        {save ? (
          <Badge tone="accent" className="product-card__save">
            {save}
          </Badge>
        ) : null}
        {upcoming ? (
          <Badge tone="brand" className="product-card__drop">
            <DropCountdown releaseAt={product.release_at} />
          </Badge>
        ) : null}
      </div>
      <div className="product-card__body">
        {category ? <p className="product-card__category">{category}</p> : null}
        <h3 className="product-card__name">
          <Link to={href} className="product-card__link">
            {product.name}
          </Link>
        </h3>
        <ProductBadges product={product} showSave={false} />
        <div className="product-card__footer">
          <ProductPrice product={product} />
          <Button
            className="product-card__add"
            size="sm"
            fullWidth
            disabled={soldOut || upcoming}
            startIcon={soldOut || upcoming ? undefined : <CartIcon size={18} />}
            // The name starts with the visible label (speech input users say what they see).
            aria-label={t('product.actionOn', { action: label, name: product.name })}
            onClick={() => onAddToCart(product)}
          >
            {label}
          </Button>
        </div>
      </div>
    </article>
  );
}
