import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { Button } from '@/components/ui/button';
import { useLeaveReview } from '@/features/reviews/api/reviews';
import { ApiError, errorMessage } from '@/lib/api-client';

import './stars.css';

const MAX_CHARS = 1000;

/** The buyer's review of a delivered order: 1 to 5 stars and a few words, once. */
export function ReviewForm({ orderId, orderKey }: { orderId: number; orderKey: string | null }) {
  const { t } = useTranslation('pages');
  const [rating, setRating] = useState(0);
  const [text, setText] = useState('');
  const leave = useLeaveReview(orderId, orderKey);
  const textId = useId();

  if (leave.isSuccess || (leave.error instanceof ApiError && leave.error.status === 409)) {
    return (
      <p role="status" className="review-form__thanks">
        {leave.isSuccess ? t('reviewForm.thanks') : t('reviewForm.already')}
      </p>
    );
  }

  return (
    <form
      className="review-form"
      onSubmit={(event) => {
        event.preventDefault();
        if (rating > 0) leave.mutate({ rating, text });
      }}
    >
      <fieldset className="review-form__stars">
        <legend>{t('reviewForm.rating')}</legend>
        {[1, 2, 3, 4, 5].map((n) => (
          <button
            key={n}
            type="button"
            className="review-form__star"
            aria-pressed={n <= rating}
            aria-label={t('reviewForm.stars', { count: n })}
            onClick={() => setRating(n)}
          >
            ★
          </button>
        ))}
      </fieldset>
      <label htmlFor={textId}>{t('reviewForm.text')}</label>
      <textarea
        id={textId}
        value={text}
        maxLength={MAX_CHARS}
        onChange={(event) => setText(event.target.value)}
      />
      <span className="review-form__count">
        {t('reviewForm.count', { count: text.length, max: MAX_CHARS })}
      </span>
      {leave.error ? (
        <p role="alert" className="review-form__error">
          {errorMessage(leave.error)}
        </p>
      ) : null}
      <Button type="submit" disabled={rating === 0} loading={leave.isPending}>
        {t('reviewForm.submit')}
      </Button>
    </form>
  );
}
