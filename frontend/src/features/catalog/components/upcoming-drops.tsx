import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { ClockIcon } from '@/components/ui/icons';
import { paths } from '@/config/paths';
import { DropCountdown } from '@/features/catalog/components/drop-countdown';
import { ProductImage } from '@/features/catalog/components/product-image';
import { isUpcomingDrop, releaseTimeLabel } from '@/lib/drop';
import type { Product } from '@/types/api';

import './upcoming-drops.css';

/** The drops not on sale yet, the soonest first (a drop without a time last). */
export function upcomingDrops(products: readonly Product[]): Product[] {
  const at = (product: Product) =>
    product.release_at ? Date.parse(product.release_at) : Number.POSITIVE_INFINITY;
  return products.filter(isUpcomingDrop).sort((a, b) => at(a) - at(b));
}

/**
 * The home page's strip of upcoming drops, above the grid: each with its countdown and a link to
 * its page. Nothing when no drop is coming.
 */
export function UpcomingDrops({ products }: { products: readonly Product[] }) {
  const { t } = useTranslation();
  const drops = upcomingDrops(products);
  if (drops.length === 0) return null;
  return (
    <section className="upcoming-drops" aria-labelledby="upcoming-drops-title">
      <div className="container">
        <h2 id="upcoming-drops-title" className="upcoming-drops__title">
          <ClockIcon size={20} />
          {t('catalog.upcomingDrops')}
        </h2>
        <ul className="upcoming-drops__list">
          {drops.map((drop) => (
            <li key={drop.id} className="upcoming-drops__item">
              <ProductImage product={drop} size="thumb" />
              <div className="upcoming-drops__text">
                <Link to={paths.product.getHref(drop.id)} className="upcoming-drops__name">
                  {drop.name}
                </Link>
                {drop.release_at ? (
                  <time className="upcoming-drops__when" dateTime={drop.release_at}>
                    {releaseTimeLabel(drop.release_at)}
                  </time>
                ) : null}
                <p className="upcoming-drops__countdown">
                  <DropCountdown releaseAt={drop.release_at} />
                </p>
              </div>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
