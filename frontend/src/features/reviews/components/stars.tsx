import { useTranslation } from 'react-i18next';
import './stars.css';

/** Stars for reading: "4.5 out of 5 stars" to a screen reader. */
export function Stars({ rating, size = 18 }: { rating: number; size?: number }) {
  const { t } = useTranslation();
  const rounded = Math.round(rating);
  return (
    <span
      className="stars"
      role="img"
      aria-label={t('reviews.stars', { rating })}
      style={{ fontSize: size }}
    >
      {[1, 2, 3, 4, 5].map((n) => (
        <span key={n} className={n <= rounded ? 'stars__on' : 'stars__off'} aria-hidden="true">
          ★
        </span>
      ))}
    </span>
  );
}
