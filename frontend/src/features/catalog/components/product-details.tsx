import { Trans, useTranslation } from 'react-i18next';
import type { ReactNode } from 'react';
import { Link } from 'react-router';

import { Button } from '@/components/ui/button';
import { CartIcon, ClockIcon, ShieldIcon } from '@/components/ui/icons';
import { paths } from '@/config/paths';
import { DropCountdown } from '@/features/catalog/components/drop-countdown';
import { ProductBadges } from '@/features/catalog/components/product-badges';
import { ProductImage } from '@/features/catalog/components/product-image';
import { ProductPrice } from '@/features/catalog/components/product-price';
import { categoryLabel } from '@/features/catalog/utils/product-labels';
import { capLabel, isUpcomingDrop, releaseTimeLabel } from '@/lib/drop';
import { formatUnitPrice } from '@/lib/currency';
import { useCurrency } from '@/lib/currency-choice';
import { isOutOfStock } from '@/lib/stock';
import type { Product } from '@/types/api';

import './product-details.css';

/** What the buyer already holds of a drop this product takes; `full`: no more may go in. */
export type HoldingNote = { id: number; text: string; full: boolean };

type ProductDetailsProps = {
  product: Product;
  onAddToCart: (product: Product) => void;
  /** Buy Now: adds the product, then goes on to the checkout. */
  onBuyNow?: (product: Product) => void;
  /** How many the shopper already has in the cart. */
  quantityInCart?: number;
  /** For bundles: the products it contains, when they are in the catalogue. */
  includedProducts?: Product[];
  /** The shop's delivery promise, "under N minutes" (the site's `DeliveryTime`). */
  deliveryTime: ReactNode;
  /** Under an upcoming drop's release time: e.g. the prompt to link Discord beforehand. */
  dropNotice?: ReactNode;
  /**
   * "You already have N of M" for the drops it takes (itself, a bundle's), counting the buyer's
   * orders and cart; one `full` disables Add to Cart and Buy Now with its words as the reason.
   */
  holdings?: HoldingNote[];
};

/** "This bundle includes": each product with its picture, link and price. */
function BundleContents({ items }: { items: Product[] }) {
  const { t } = useTranslation();
  const { currency } = useCurrency();
  return (
    <section className="product-details__bundle" aria-labelledby="bundle-title">
      <h2 id="bundle-title" className="product-details__bundle-title">
        {t('product.bundleIncludes')}
      </h2>
      <ul>
        {items.map((item) => (
          <li key={item.id}>
            <ProductImage product={item} size="thumb" />
            <Link to={paths.product.getHref(item.id)}>{item.name}</Link>
            <span className="product-details__bundle-price">
              {formatUnitPrice(item.price, currency)}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** An upcoming drop's release time, and what to do before it. */
function DropTime({ releaseAt, notice }: { releaseAt: string | null; notice: ReactNode }) {
  const { t } = useTranslation();
  return (
    <section className="product-details__drop" aria-labelledby="drop-title">
      <h2 id="drop-title" className="product-details__drop-title">
        <ClockIcon />
        {releaseAt ? (
          <span>
            <Trans
              i18nKey="product.dropsAt"
              values={{ when: releaseTimeLabel(releaseAt) }}
              components={{ time: <time dateTime={releaseAt} /> }}
            />
          </span>
        ) : (
          <span>{t('product.dropsSoon')}</span>
        )}
      </h2>
      {notice}
    </section>
  );
}

/** Add to Cart and Buy Now; an upcoming drop's countdown in their place. */
function BuyButtons({
  product,
  upcoming,
  soldOut,
  full,
  fullReason,
  onAddToCart,
  onBuyNow,
}: Pick<ProductDetailsProps, 'product' | 'onAddToCart' | 'onBuyNow'> & {
  upcoming: boolean;
  soldOut: boolean;
  full: boolean;
  fullReason: string | undefined;
}) {
  const { t } = useTranslation();
  return (
    <>
      {upcoming ? (
        // Disabled until the server's data says it is on sale, even after the countdown ends.
        <Button size="lg" fullWidth disabled className="product-details__countdown">
          <DropCountdown releaseAt={product.release_at} />
        </Button>
      ) : (
        <Button
          size="lg"
          fullWidth
          disabled={soldOut || full}
          aria-describedby={fullReason}
          startIcon={soldOut ? undefined : <CartIcon />}
          onClick={() => onAddToCart(product)}
        >
          {soldOut ? t('product.outOfStock') : t('product.addToCart')}
        </Button>
      )}
      {onBuyNow && !soldOut && !upcoming ? (
        <Button
          size="lg"
          variant="secondary"
          fullWidth
          disabled={full}
          aria-describedby={fullReason}
          onClick={() => onBuyNow(product)}
        >
          {t('product.buyNow')}
        </Button>
      ) : null}
    </>
  );
}

/** The caps per account (its own, its bundle's drops) and what the buyer already holds. */
function Limits({
  product,
  includedProducts,
  holdings,
  fullReason,
}: {
  product: Product;
  includedProducts: Product[];
  holdings: HoldingNote[];
  fullReason: string | undefined;
}) {
  useTranslation();
  // A bundle's drops count against their caps too (one unit per bundle): say so on the bundle.
  const heldCaps = new Map(
    includedProducts.flatMap(({ id, name, max_per_account }) =>
      max_per_account && id !== product.id ? [[id, { name, max_per_account }] as const] : [],
    ),
  );
  return (
    <>
      {product.max_per_account ? (
        <p className="product-details__limit">
          {capLabel({ name: product.name, max_per_account: product.max_per_account })}
        </p>
      ) : null}
      {[...heldCaps].map(([id, drop]) => (
        <p key={id} className="product-details__limit">
          {capLabel(drop, { held: true })}
        </p>
      ))}
      {holdings.map((note) => (
        <p
          key={note.id}
          id={note.full ? fullReason : undefined}
          className={`product-details__held${note.full ? ' product-details__held--full' : ''}`}
        >
          {note.text}
        </p>
      ))}
    </>
  );
}

export function ProductDetails({
  product,
  onAddToCart,
  onBuyNow,
  quantityInCart = 0,
  includedProducts = [],
  deliveryTime,
  dropNotice,
  holdings = [],
}: ProductDetailsProps) {
  const { t } = useTranslation();
  const soldOut = isOutOfStock(product);
  const full = holdings.some((note) => note.full);
  const fullReason = full ? 'product-holding-full' : undefined;
  const upcoming = isUpcomingDrop(product);
  const category = categoryLabel(product.category);

  return (
    <article className="product-details" aria-labelledby="product-title">
      <div className="product-details__media">
        <ProductImage product={product} size="detail" eager priority />
      </div>
      <div className="product-details__info">
        {category ? <p className="product-details__category">{category}</p> : null}
        <h1 id="product-title" className="product-details__name">
          {product.name}
        </h1>
        <ProductPrice product={product} size="lg" />
        <ProductBadges product={product} />
        {product.description ? (
          <p className="product-details__description">{product.description}</p>
        ) : null}

        {includedProducts.length > 0 ? <BundleContents items={includedProducts} /> : null}

        {upcoming ? <DropTime releaseAt={product.release_at} notice={dropNotice} /> : null}

        <div className="product-details__actions">
          <BuyButtons
            product={product}
            upcoming={upcoming}
            soldOut={soldOut}
            full={full}
            fullReason={fullReason}
            onAddToCart={onAddToCart}
            onBuyNow={onBuyNow}
          />
          <Limits
            product={product}
            includedProducts={includedProducts}
            holdings={holdings}
            fullReason={fullReason}
          />
          {quantityInCart > 0 ? (
            <p className="product-details__in-cart" role="status">
              {t('product.youHaveInCart', { count: quantityInCart })}
            </p>
          ) : null}
        </div>

        <ul className="product-details__assurances">
          <li>
            <ClockIcon />
            <span>
              <Trans
                i18nKey="product.deliveredUsuallyIn"
                components={{ time: <>{deliveryTime}</> }}
              />
            </span>
          </li>
          <li>
            <ShieldIcon />
            <span>{t('product.securePayment')}</span>
          </li>
        </ul>
      </div>
    </article>
  );
}
