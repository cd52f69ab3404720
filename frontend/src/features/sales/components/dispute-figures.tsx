import { useId } from 'react';

import type { DisputeStats } from '@/features/sales/api/get-sales-stats';
import { formatPrice } from '@/lib/money';

import './dispute-figures.css';

const percent = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });

/**
 * "Disputes": how many were opened, won, lost and are pending, the money lost, and the dispute
 * rate of the last 30 days against the warning line (a shop over the card networks' lines loses
 * its payment account).
 */
export function DisputeFigures({ disputes }: { disputes: DisputeStats }) {
  const titleId = useId();
  const rate = disputes.rate_percent;
  const figures: { label: string; value: string }[] = [
    { label: 'Opened', value: String(disputes.opened) },
    { label: 'Won', value: String(disputes.won) },
    { label: 'Lost', value: String(disputes.lost) },
    { label: 'Pending', value: String(disputes.pending) },
    { label: 'Money lost', value: formatPrice(disputes.lost_amount) },
  ];
  return (
    <section className="dispute-figures" aria-labelledby={titleId}>
      <h3 id={titleId} className="dispute-figures__title">
        Disputes
      </h3>
      <dl className="dispute-figures__list">
        {figures.map((figure) => (
          <div key={figure.label} className="dispute-figures__figure">
            <dt>{figure.label}</dt>
            <dd>{figure.value}</dd>
          </div>
        ))}
      </dl>
      <p
        className={`dispute-figures__rate${disputes.over_warning ? ' dispute-figures__rate--over' : ''}`}
        data-testid="dispute-rate"
        role={disputes.over_warning ? 'alert' : undefined}
      >
        Dispute rate, last {disputes.window_days} days:{' '}
        <strong>{rate === null ? 'no paid orders' : `${percent.format(rate)} %`}</strong> (
        {disputes.opened_in_window} of {disputes.paid_in_window} paid{' '}
        {disputes.paid_in_window === 1 ? 'order' : 'orders'}). Warning line:{' '}
        {percent.format(disputes.warn_rate_percent)} %.
        {disputes.over_warning
          ? ' Over the line: refund doubtful orders before they are disputed and answer every dispute.'
          : null}
      </p>
    </section>
  );
}
