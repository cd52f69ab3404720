import { Trans, useTranslation } from 'react-i18next';

import { Button } from '@/components/ui/button';
import type { TrackedOrder } from '@/features/checkout/api/get-tracked-order';
import { useBuyerStep } from '@/features/checkout/api/buyer-step';
import { errorMessage } from '@/lib/api-client';
import { currentLanguage } from '@/lib/i18n/format';

/** After the delivery: "I got my items" until the buyer has said so, then when they did. */
export function ReceivedButton({
  order,
  orderKey,
}: {
  order: TrackedOrder;
  orderKey: string | null;
}) {
  const { t } = useTranslation('pages');
  const received = useBuyerStep(order.id, orderKey, 'received');
  const receivedAt = order.delivery.received_at;
  return (
    <div className="order-page__received">
      {receivedAt === null ? (
        <>
          <Button
            variant="secondary"
            fullWidth
            loading={received.isPending}
            onClick={() => received.mutate()}
          >
            {t('received.button')}
          </Button>
          <p className="order-page__hint">{t('received.hint')}</p>
        </>
      ) : (
        <p className="order-page__said" role="status">
          <Trans
            t={t}
            i18nKey="received.confirmed"
            values={{
              when: new Intl.DateTimeFormat(currentLanguage(), {
                dateStyle: 'medium',
                timeStyle: 'short',
              }).format(new Date(receivedAt)),
            }}
            components={{ time: <time dateTime={receivedAt} /> }}
          />
        </p>
      )}
      {received.isError ? (
        <p className="order-page__error" role="alert">
          {errorMessage(received.error)}
        </p>
      ) : null}
    </div>
  );
}
