import { Link } from 'react-router';

import { buttonClassName } from '@/components/ui/button';
import { SproutIcon } from '@/components/ui/icons';
import { Skeleton } from '@/components/ui/skeleton';
import { StateMessage } from '@/components/ui/state-message';
import { paths } from '@/config/paths';
import { useUser } from '@/features/auth/hooks/use-user';
import { useReviews } from '@/features/reviews/api/reviews';
import { HideReviewButton } from '@/features/reviews/components/hide-review';
import { Stars } from '@/features/reviews/components/stars';
import { errorMessage } from '@/lib/api-client';

import './reviews.css';

const day = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' });

/** /reviews: what verified buyers said, newest first, with the average and the count. */
export function ReviewsRoute() {
  const reviews = useReviews();
  const { isStaff } = useUser();
  return (
    <div className="container reviews-page">
      <title>Reviews · Garden Shop</title>
      <header className="reviews-page__header">
        <h1 className="reviews-page__title">Reviews</h1>
        <p className="reviews-page__lead">
          Only buyers whose order was delivered can leave a review, once per order.
        </p>
        {reviews.data ? (
          <p className="reviews-page__summary" data-testid="reviews-summary">
            {reviews.data.average !== null ? (
              <>
                <Stars rating={reviews.data.average} size={22} />
                <strong>{reviews.data.average.toFixed(1)} out of 5</strong>
              </>
            ) : null}
            <span>
              {reviews.data.count} verified review{reviews.data.count === 1 ? '' : 's'}
            </span>
          </p>
        ) : null}
      </header>
      {reviews.isPending ? (
        <div aria-busy="true" aria-label="Loading reviews" className="reviews-page__list">
          <Skeleton height="5rem" />
          <Skeleton height="5rem" />
        </div>
      ) : reviews.isError ? (
        <p role="alert">{errorMessage(reviews.error)}</p>
      ) : reviews.data.count === 0 ? (
        <StateMessage
          icon={<SproutIcon size={28} />}
          title="No reviews yet"
          description="Buyers review their order once it is delivered. Yours could be the first."
          action={
            <Link to={paths.home.getHref()} className={buttonClassName()}>
              Browse products
            </Link>
          }
        />
      ) : (
        <ul className="reviews-page__list" aria-label="Reviews">
          {reviews.data.reviews.map((review) => (
            <li key={review.id} className="review-card">
              <div className="review-card__top">
                <Stars rating={review.rating} />
                <time dateTime={review.created_at} className="review-card__date">
                  {day.format(new Date(review.created_at))}
                </time>
              </div>
              {review.text ? <p className="review-card__text">{review.text}</p> : null}
              <div className="review-card__bottom">
                <p className="review-card__name">{review.name} · verified buyer</p>
                {isStaff ? <HideReviewButton review={review} /> : null}
              </div>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
