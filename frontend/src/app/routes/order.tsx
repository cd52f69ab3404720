import { Link, useParams, useSearchParams } from 'react-router';

import { Badge, type BadgeTone } from '@/components/ui/badge';
import { buttonClassName } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { paths } from '@/config/paths';
import { useTrackedOrder, type TrackedOrder } from '@/features/checkout/api/get-tracked-order';
import { OrderTimeline } from '@/features/checkout/components/order-timeline';
import { queueText } from '@/features/checkout/utils/order-key';
import { ReviewForm } from '@/features/reviews/components/review-form';
import { ApiError } from '@/lib/api-client';
import { formatPrice } from '@/lib/money';

import './order.css';

const TONES: Record<string, BadgeTone> = {
  pending: 'warning',
  paid: 'brand',
  delivered: 'brand',
  refunded: 'neutral',
  disputed: 'danger',
  expired: 'danger',
  cancelled: 'danger',
};

const EXPLANATIONS: Record<string, string> = {
  pending: 'Waiting for the payment provider to confirm your payment.',
  paid: 'Your payment is confirmed. A member of staff will deliver your items in Roblox: be online and accept the trade.',
  delivered: 'Your items have been delivered. Enjoy!',
  refunded: 'This order was refunded. The money goes back the way you paid.',
  disputed:
    'The payment of this order is disputed with the bank. Contact support in the help chat.',
  expired: 'The payment session expired before it was paid. Nothing was charged.',
  cancelled: 'This order was cancelled. Nothing was charged.',
};

function orderIdOf(raw: string | undefined): number | null {
  if (!raw || !/^\d{1,15}$/.test(raw)) return null;
  const id = Number(raw);
  return id > 0 ? id : null;
}

function Details({ order, orderKey }: { order: TrackedOrder; orderKey: string | null }) {
  return (
    <>
      <section className="order-page__card" aria-labelledby="order-title">
        <div className="order-page__header">
          <h1 id="order-title" className="order-page__title">
            Order #{order.id}
          </h1>
          <Badge tone={TONES[order.status] ?? 'neutral'} data-testid="order-page-status">
            {order.status_label || order.status}
          </Badge>
        </div>
        <p className="order-page__explanation" role="status">
          {EXPLANATIONS[order.status] ?? ''}
        </p>
        {order.queue_position !== null ? (
          <p className="order-page__queue" data-testid="queue-position">
            <strong>{queueText(order.queue_position)}</strong> in the delivery queue
          </p>
        ) : null}
        <OrderTimeline order={order} />
      </section>

      <section className="order-page__card" aria-labelledby="order-items-title">
        <h2 id="order-items-title" className="order-page__subtitle">
          Items
        </h2>
        <ul className="order-page__items" aria-label="Items">
          {order.items.map((item) => (
            <li key={item.id} className="order-page__item">
              <span>
                {item.qty} × {item.name}
              </span>
              <span>{formatPrice(item.unit_price * item.qty)}</span>
            </li>
          ))}
        </ul>
        <dl className="order-page__amounts">
          {order.discount > 0 ? (
            <div>
              <dt>Discount</dt>
              <dd>−{formatPrice(order.discount)}</dd>
            </div>
          ) : null}
          <div>
            <dt>Processing fee</dt>
            <dd>{formatPrice(order.fee)}</dd>
          </div>
          <div className="order-page__total">
            <dt>Total</dt>
            <dd>{formatPrice(order.total)}</dd>
          </div>
          <div>
            <dt>Roblox username</dt>
            <dd>{order.roblox_username}</dd>
          </div>
        </dl>
      </section>

      {order.status === 'delivered' ? (
        <section className="order-page__card" aria-labelledby="order-review-title">
          <h2 id="order-review-title" className="order-page__subtitle">
            How did we do?
          </h2>
          <ReviewForm orderId={order.id} orderKey={orderKey} />
        </section>
      ) : null}
    </>
  );
}

function TrackedOrderView({ id, orderKey }: { id: number; orderKey: string | null }) {
  const order = useTrackedOrder(id, orderKey);
  if (order.data) return <Details order={order.data} orderKey={orderKey} />;
  if (order.error) {
    const notFound = order.error instanceof ApiError && order.error.isNotFound;
    return (
      <section className="order-page__card" aria-labelledby="order-title">
        <h1 id="order-title" className="order-page__title">
          {notFound ? 'Order not found' : 'Something went wrong'}
        </h1>
        <p className="order-page__explanation" role="alert">
          {notFound
            ? 'This link does not open an order. Use the full link from your receipt e-mail, or log in to see your orders.'
            : 'We could not load this order. Please try again in a moment.'}
        </p>
      </section>
    );
  }
  return (
    <section className="order-page__card" aria-busy="true" aria-label={`Loading order #${id}`}>
      <Skeleton height="2rem" width="40%" />
      <Skeleton height="1rem" />
      <Skeleton height="6rem" />
    </section>
  );
}

/** /orders/:id?key=…: an order's page, opened from the receipt's link in any browser. */
export function OrderRoute() {
  const params = useParams();
  const [search] = useSearchParams();
  const id = orderIdOf(params.id);
  const key = search.get('key');
  return (
    <div className="container order-page">
      <title>{id ? `Order #${id} · Garden Shop` : 'Order · Garden Shop'}</title>
      {id !== null ? (
        <TrackedOrderView id={id} orderKey={key} />
      ) : (
        <section className="order-page__card">
          <h1 className="order-page__title">Order not found</h1>
        </section>
      )}
      <div className="order-page__actions">
        <Link to={paths.home.getHref()} className={buttonClassName({ variant: 'secondary' })}>
          Back to the shop
        </Link>
      </div>
    </div>
  );
}
