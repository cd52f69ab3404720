import type { ReactNode } from 'react';

import { Badge, type BadgeTone } from '@/components/ui/badge';
import { Skeleton } from '@/components/ui/skeleton';
import { useOrderStatus } from '@/features/checkout/api/get-order';
import type { OrderStatus as Status } from '@/features/checkout/types';
import { ApiError } from '@/lib/api-client';
import { formatPrice } from '@/lib/money';

import './order-status.css';

const TONES: Record<Status, BadgeTone> = {
  pending: 'warning',
  paid: 'brand',
  delivered: 'brand',
  expired: 'danger',
  cancelled: 'danger',
  refunded: 'neutral',
  disputed: 'danger',
};

const EXPLANATIONS: Record<Status, string> = {
  pending: 'Waiting for the payment provider to confirm your payment…',
  paid: 'Your payment is confirmed. Our staff will deliver your items in game.',
  delivered: 'Your items have been delivered. Enjoy!',
  expired: 'The payment session expired before it was paid. Nothing was charged.',
  cancelled: 'This order was cancelled. Nothing was charged.',
  refunded: 'This order was refunded.',
  disputed: 'The payment was disputed with your bank. Please contact support.',
};

/**
 * The order's number and its status as the server reports it, asked again every 2 s until the
 * payment provider has confirmed it. Nothing here claims a payment the server has not seen.
 */
export function OrderStatusCard({
  orderId,
  helpChat,
}: {
  orderId: number;
  /** Words that open the help chat ("ask us in the help chat"). */
  helpChat: ReactNode;
}) {
  const order = useOrderStatus(orderId);

  if (order.data) {
    const { status } = order.data;
    return (
      <section className="order-status" aria-labelledby="order-status-title">
        <div className="order-status__header">
          <h2 id="order-status-title" className="order-status__title">
            Order #{order.data.id}
          </h2>
          <Badge tone={TONES[status] ?? 'neutral'} data-testid="order-status">
            {order.data.status_label || 'Pending'}
          </Badge>
        </div>
        <p className="order-status__explanation" role="status">
          {EXPLANATIONS[status] ?? ''}
        </p>
        <dl className="order-status__facts">
          <div>
            <dt>Order total</dt>
            <dd>{formatPrice(order.data.total)}</dd>
          </div>
          <div>
            <dt>Roblox username</dt>
            <dd>{order.data.roblox_username}</dd>
          </div>
        </dl>
      </section>
    );
  }

  if (order.error instanceof ApiError && order.error.isNotFound) {
    return (
      <section className="order-status" aria-labelledby="order-status-title">
        <h2 id="order-status-title" className="order-status__title">
          Order #{orderId}
        </h2>
        <p className="order-status__explanation" role="status">
          We could not find this order for this browser. If you paid, it shows on your profile once
          you log in, or {helpChat}.
        </p>
      </section>
    );
  }

  return (
    <section className="order-status" aria-busy="true" aria-label={`Loading order #${orderId}`}>
      <h2 className="order-status__title">Order #{orderId}</h2>
      <Skeleton height={20} width="60%" />
      <Skeleton height={20} width="40%" />
    </section>
  );
}
