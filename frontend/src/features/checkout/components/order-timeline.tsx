import type { TimelineStatus, TrackedOrder } from '@/features/checkout/api/get-tracked-order';

import './order-timeline.css';

const LABELS: Record<TimelineStatus, string> = {
  paid: 'Paid',
  claimed: 'Claimed by staff',
  delivered: 'Delivered',
  refunded: 'Refunded',
  disputed: 'Disputed',
  expired: 'Expired',
  cancelled: 'Cancelled',
};

/** The way an order goes when nothing goes wrong. */
const HAPPY_PATH: TimelineStatus[] = ['paid', 'claimed', 'delivered'];

const when = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });

type Step = { status: TimelineStatus; at: string | null };

/**
 * The steps the order went through, with their times, then the ones still to come (greyed).
 * A refund or dispute ends the way: nothing is shown after it.
 */
function steps(order: TrackedOrder): Step[] {
  const done: Step[] = order.timeline.map((step) => ({ status: step.status, at: step.at }));
  const ended = done.some((step) => !HAPPY_PATH.includes(step.status));
  if (ended || order.status === 'pending') return done;
  const seen = new Set(done.map((step) => step.status));
  const last = HAPPY_PATH.indexOf(done.at(-1)?.status ?? 'paid');
  const upcoming = HAPPY_PATH.filter((status, index) => !seen.has(status) && index > last).map(
    (status) => ({ status, at: null }),
  );
  return [...done, ...upcoming];
}

export function OrderTimeline({ order }: { order: TrackedOrder }) {
  const all = steps(order);
  if (all.length === 0) return null;
  return (
    <ol className="order-timeline" aria-label="Order progress">
      {all.map((step) => {
        const done = step.at !== null;
        const tone = ['refunded', 'disputed', 'expired', 'cancelled'].includes(step.status)
          ? 'order-timeline__step--stop'
          : '';
        return (
          <li
            key={step.status}
            className={`order-timeline__step ${done ? 'order-timeline__step--done' : ''} ${tone}`}
            aria-current={
              done && step === all.filter((s) => s.at !== null).at(-1) ? 'step' : undefined
            }
          >
            <span className="order-timeline__dot" aria-hidden="true" />
            <span className="order-timeline__label">{LABELS[step.status] ?? step.status}</span>
            {step.at ? (
              <time className="order-timeline__time" dateTime={step.at}>
                {when.format(new Date(step.at))}
              </time>
            ) : (
              <span className="order-timeline__time">Not yet</span>
            )}
          </li>
        );
      })}
    </ol>
  );
}
