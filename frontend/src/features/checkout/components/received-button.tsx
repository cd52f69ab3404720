import { Button } from '@/components/ui/button';
import type { TrackedOrder } from '@/features/checkout/api/get-tracked-order';
import { useBuyerStep } from '@/features/checkout/api/buyer-step';
import { errorMessage } from '@/lib/api-client';

const when = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });

/** After the delivery: "I got my items" until the buyer has said so, then when they did. */
export function ReceivedButton({
  order,
  orderKey,
}: {
  order: TrackedOrder;
  orderKey: string | null;
}) {
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
            I got my items
          </Button>
          <p className="order-page__hint">
            Found everything in your garden? Tell us, and we keep it with your order.
          </p>
        </>
      ) : (
        <p className="order-page__said" role="status">
          You confirmed you got your items on{' '}
          <time dateTime={receivedAt}>{when.format(new Date(receivedAt))}</time>.
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
