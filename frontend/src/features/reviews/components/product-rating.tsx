import { Link } from 'react-router';

import { paths } from '@/config/paths';
import { useReviews } from '@/features/reviews/api/reviews';
import { Stars } from '@/features/reviews/components/stars';

/** A product's average and count of verified reviews; nothing while it has none. */
export function ProductRating({ productId }: { productId: number }) {
  const reviews = useReviews(productId);
  if (!reviews.data || reviews.data.count === 0 || reviews.data.average === null) return null;
  const { average, count } = reviews.data;
  return (
    <p className="product-rating" data-testid="product-rating">
      <Stars rating={average} />{' '}
      <Link to={paths.reviews.getHref()}>
        {average.toFixed(1)} from {count} verified review{count === 1 ? '' : 's'}
      </Link>
    </p>
  );
}
