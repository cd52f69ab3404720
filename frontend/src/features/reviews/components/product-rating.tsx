import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { currentLanguage } from '@/lib/i18n/format';
import { paths } from '@/config/paths';
import { useReviews } from '@/features/reviews/api/reviews';
import { Stars } from '@/features/reviews/components/stars';

/** A product's average and count of verified reviews; nothing while it has none. */
export function ProductRating({ productId }: { productId: number }) {
  const { t } = useTranslation();
  const reviews = useReviews(productId);
  if (!reviews.data || reviews.data.count === 0 || reviews.data.average === null) return null;
  const { average, count } = reviews.data;
  return (
    <p className="product-rating" data-testid="product-rating">
      <Stars rating={average} />{' '}
      <Link to={paths.reviews.getHref()}>
        {t('reviews.summary', {
          count,
          average: new Intl.NumberFormat(currentLanguage(), {
            minimumFractionDigits: 1,
            maximumFractionDigits: 1,
          }).format(average),
        })}
      </Link>
    </p>
  );
}
