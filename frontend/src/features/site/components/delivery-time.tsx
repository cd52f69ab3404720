import { useTranslation } from 'react-i18next';
import { useDeliveryMinutes } from '@/features/site/api/get-site';

/**
 * The shop's delivery promise as the middle of a sentence: "under 25 minutes". The one place it
 * is worded; `minutes` is an order's own `estimate_minutes`, else the shop's `delivery_minutes`.
 * Until the number is known it reads "a few minutes", never a number the server did not give.
 */
export function DeliveryTime({ minutes }: { minutes?: number | null }) {
  const { t } = useTranslation();
  const shop = useDeliveryMinutes();
  const promise = minutes ?? shop;
  return (
    <span data-testid="delivery-time">
      {promise === null ? t('delivery.fewMinutes') : t('delivery.under', { count: promise })}
    </span>
  );
}
