import { useTranslation } from 'react-i18next';
import { useSecondsUntil } from '@/hooks/use-seconds-until';
import { countdownLabel } from '@/lib/drop';

/**
 * An upcoming drop's countdown as words, ticking each second: "Drops in 4:59". At zero it reads
 * "Dropping…" until the server's `products` event brings the product as released: the page
 * never opens the sale on this browser's clock.
 */
export function DropCountdown({ releaseAt }: { releaseAt: string | null }) {
  const { t } = useTranslation();
  const seconds = useSecondsUntil(releaseAt);
  if (seconds === null) return <>{t('product.dropsSoon')}</>;
  if (seconds === 0) return <>{t('product.dropping')}</>;
  return <>{t('product.dropsIn', { time: countdownLabel(seconds) })}</>;
}
