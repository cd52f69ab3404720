import { Badge, type BadgeTone } from '@/components/ui/badge';

import { warnedEvidenceHref, type WarnedOrder } from '@/features/disputes/api/disputes';

import { EvidenceFiles } from './evidence-files';

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

const EVIDENCE: Record<WarnedOrder['evidence'], { label: string; tone: BadgeTone }> = {
  preparing: { label: 'Preparing the evidence', tone: 'warning' },
  prepared: { label: 'Evidence ready at Stripe', tone: 'brand' },
  failed: { label: 'Evidence not prepared', tone: 'danger' },
};

/**
 * Delivered orders whose payment got an early fraud warning, newest first: a dispute may follow,
 * so the shop builds the evidence from the delivery record and uploads it to Stripe at once. The
 * files are shown as a dispute would send them.
 */
export function WarnedOrders({ warned }: { warned: WarnedOrder[] }) {
  return (
    <ul className="dispute-list" aria-label="Fraud warnings on delivered orders">
      {warned.map((order) => {
        const evidence = EVIDENCE[order.evidence];
        const title = `Order #${order.order_id}`;
        return (
          <li key={order.order_id} className="dispute-list__entry" aria-label={title}>
            <div className="dispute-list__main">
              <span className="dispute-list__title">{title}</span>
              <Badge tone="danger">Fraud warning</Badge>
              <Badge tone={evidence.tone}>{evidence.label}</Badge>
            </div>
            <p className="dispute-list__meta">
              {order.fraud_type ? `${order.fraud_type.replaceAll('_', ' ')} · ` : null}
              {'warned '}
              <time dateTime={order.warned_at}>{dateFormat.format(new Date(order.warned_at))}</time>
            </p>
            <p className="dispute-list__advice">
              {order.evidence === 'failed'
                ? `Uploading to Stripe failed (${order.error ?? 'no reason given'}). A dispute of this order still builds its own files.`
                : 'Delivered already, so nothing is held: if the bank opens a dispute, it is staged with these files at once.'}
            </p>
            <EvidenceFiles href={(file) => warnedEvidenceHref(order.order_id, file)} />
          </li>
        );
      })}
    </ul>
  );
}
