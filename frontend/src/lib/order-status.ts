import type { TFunction } from 'i18next';

/** An order's status in the viewer's language (the server's `status_label` is English). */
export function orderStatusLabel(t: TFunction<'pages'>, status: string): string {
  const labels: Record<string, string> = {
    pending: t('order.status.pending'),
    paid: t('order.status.paid'),
    delivered: t('order.status.delivered'),
    refunded: t('order.status.refunded'),
    disputed: t('order.status.disputed'),
    expired: t('order.status.expired'),
    cancelled: t('order.status.cancelled'),
  };
  return labels[status] ?? status;
}
