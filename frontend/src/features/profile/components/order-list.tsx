import { Link } from 'react-router';

import { Badge, type BadgeTone } from '@/components/ui/badge';
import { paths } from '@/config/paths';
import { formatMoney } from '@/lib/money';

import type { Order } from '@/features/profile/api/get-profile';

import './order-list.css';

const STATUS_TONES: Record<string, BadgeTone> = {
  pending: 'warning',
  paid: 'brand',
  delivered: 'brand',
  refunded: 'special',
  disputed: 'danger',
};

const dateTime = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });

/** The status as the profile shows it; 'Pending' when the server names none (docs/product.md, Behaviour). */
export function orderStatusLabel(order: Order): string {
  return order.status_label?.trim() || 'Pending';
}

function OrderRow({ order }: { order: Order }) {
  const created = new Date(order.created_at);
  const label = orderStatusLabel(order);
  return (
    <li className="order-row">
      <div className="order-row__main">
        <h3 className="order-row__id">
          <Link to={paths.order.getHref(order.id)} className="order-row__link">
            Order #{order.id}
          </Link>
        </h3>
        <p className="order-row__date">
          {Number.isNaN(created.getTime()) ? (
            order.created_at
          ) : (
            <time dateTime={order.created_at}>{dateTime.format(created)}</time>
          )}
        </p>
      </div>
      <div className="order-row__side">
        <span className="order-row__total">{formatMoney(order.amount_paid, order.currency)}</span>
        <Badge tone={STATUS_TONES[label.toLowerCase()] ?? 'neutral'}>{label}</Badge>
      </div>
    </li>
  );
}

export function OrderList({ orders }: { orders: readonly Order[] }) {
  return (
    <ul className="order-list" aria-label="Orders">
      {orders.map((order) => (
        <OrderRow key={order.id} order={order} />
      ))}
    </ul>
  );
}
