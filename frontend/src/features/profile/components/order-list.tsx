import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { Badge, type BadgeTone } from '@/components/ui/badge';
import { paths } from '@/config/paths';
import { currentLanguage } from '@/lib/i18n/format';
import { formatMoney } from '@/lib/money';
import { orderStatusLabel } from '@/lib/order-status';

import type { Order } from '@/features/profile/api/get-profile';

import './order-list.css';

const STATUS_TONES: Record<string, BadgeTone> = {
  pending: 'warning',
  paid: 'brand',
  delivered: 'brand',
  refunded: 'special',
  disputed: 'danger',
};

/**
 * The status in the reader's language (the server's `status_label` is English): 'Pending' when
 * the server names none (docs/product.md, Behaviour), 'Payment under review' for a pending order
 * held for staff (the server's label then differs from the plain status).
 */
function statusLabel(order: Order, t: TFunction<'pages'>): string {
  const held = order.status === 'pending' && !['', 'Pending'].includes(order.status_label.trim());
  return held ? t('order.status.underReview') : orderStatusLabel(t, order.status);
}

function OrderRow({ order }: { order: Order }) {
  const { t } = useTranslation('pages');
  const created = new Date(order.created_at);
  const label = statusLabel(order, t);
  const dateTime = new Intl.DateTimeFormat(currentLanguage(), {
    dateStyle: 'medium',
    timeStyle: 'short',
  });
  return (
    <li className="order-row">
      <div className="order-row__main">
        <h3 className="order-row__id">
          <Link to={paths.order.getHref(order.id)} className="order-row__link">
            {t('order.title', { id: order.id })}
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
        <Badge tone={STATUS_TONES[order.status] ?? 'neutral'}>{label}</Badge>
      </div>
    </li>
  );
}

export function OrderList({ orders }: { orders: readonly Order[] }) {
  const { t } = useTranslation('pages');
  return (
    <ul className="order-list" aria-label={t('profile.orders')}>
      {orders.map((order) => (
        <OrderRow key={order.id} order={order} />
      ))}
    </ul>
  );
}
