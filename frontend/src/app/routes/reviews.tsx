import { useTranslation } from 'react-i18next';
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
import { currentLanguage } from '@/lib/i18n/format';

import './reviews.css';

/** /reviews: what verified buyers said, newest first, with the average and the count. */
export function ReviewsRoute() {
  const { t } = useTranslation('pages');
  const reviews = useReviews();
  const locale = currentLanguage();
  const day = new Intl.DateTimeFormat(locale, { dateStyle: 'medium' });
  const average = new Intl.NumberFormat(locale, {
    minimumFractionDigits: 1,
    maximumFractionDigits: 1,
  });
  const { isStaff } = useUser();
  return (
    <div className="container reviews-page">
      <title>{t('common.pageTitle', { ns: 'translation', title: t('reviews.title') })}</title>
      <header className="reviews-page__header">
        <h1 className="reviews-page__title">{t('reviews.title')}</h1>
        <p className="reviews-page__lead">{t('reviews.lead')}</p>
        {reviews.data ? (
          <p className="reviews-page__summary" data-testid="reviews-summary">
            {reviews.data.average !== null ? (
              <>
                <Stars rating={reviews.data.average} size={22} />
                <strong>
                  {t('reviews.outOfFive', { average: average.format(reviews.data.average) })}
                </strong>
              </>
            ) : null}
            <span>{t('reviews.count', { count: reviews.data.count })}</span>
          </p>
        ) : null}
      </header>
      {reviews.isPending ? (
        <div aria-busy="true" aria-label={t('reviews.loading')} className="reviews-page__list">
          <Skeleton height="5rem" />
          <Skeleton height="5rem" />
        </div>
      ) : reviews.isError ? (
        <p role="alert">{errorMessage(reviews.error)}</p>
      ) : reviews.data.count === 0 ? (
        <StateMessage
          icon={<SproutIcon size={28} />}
          title={t('reviews.none')}
          description={t('reviews.noneDetail')}
          action={
            <Link to={paths.home.getHref()} className={buttonClassName()}>
              {t('profile.browse')}
            </Link>
          }
        />
      ) : (
        <ul className="reviews-page__list" aria-label={t('reviews.title')}>
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
                <p className="review-card__name">
                  {t('reviews.verifiedBuyer', { name: review.name })}
                </p>
                {isStaff ? <HideReviewButton review={review} /> : null}
              </div>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
