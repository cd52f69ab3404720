import { useLiveStatus } from '@/hooks/use-live-status';
import { minutesLabel } from '@/lib/duration';

import { ORDERS_POLL_MS } from '@/features/admin-orders/api/get-admin-orders';
import type { QueueSummary } from '@/features/admin-orders/utils/queue-summary';

import './queue-summary.css';

/** Whether the queue hears changes as they happen (server push) or asks again meanwhile. */
export function LiveState() {
  const live = useLiveStatus();
  return (
    <p
      className={live ? 'live-state live-state--on' : 'live-state'}
      role="status"
      data-testid="queue-live-state"
    >
      <span className="live-state__dot" aria-hidden="true" />
      {live
        ? 'Live: new orders, claims and buyers in the game appear as they happen.'
        : `Reconnecting: the list is asked again every ${ORDERS_POLL_MS / 1000} seconds meanwhile.`}
    </p>
  );
}

/** The strip over the queue: how many wait, are being delivered, are ready, and the oldest wait. */
export function QueueSummaryStrip({ summary }: { summary: QueueSummary | null }) {
  const value = (count: number | undefined) => (count === undefined ? '–' : String(count));
  const late = summary?.late ?? false;
  return (
    <dl className="queue-summary" aria-label="Queue summary" aria-busy={summary === null}>
      <div className="queue-summary__item">
        <dt>Waiting</dt>
        <dd>{value(summary?.waiting)}</dd>
      </div>
      <div className="queue-summary__item">
        <dt>Being delivered</dt>
        <dd>{value(summary?.claimed)}</dd>
      </div>
      <div className="queue-summary__item queue-summary__item--ready">
        <dt>Ready in game</dt>
        <dd>{value(summary?.ready)}</dd>
      </div>
      <div className={`queue-summary__item${late ? ' queue-summary__item--late' : ''}`}>
        <dt>Oldest wait</dt>
        <dd>
          {summary === null
            ? '–'
            : summary.oldestWaitMinutes === null
              ? 'None'
              : minutesLabel(summary.oldestWaitMinutes)}
        </dd>
      </div>
    </dl>
  );
}
