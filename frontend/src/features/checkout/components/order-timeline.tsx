import type { ReactNode } from 'react';

import type { TimelineStatus, TrackedOrder } from '@/features/checkout/api/get-tracked-order';
import { queueText } from '@/features/checkout/utils/order-key';

import './order-timeline.css';

/**
 * A step of the order's way: the server's timeline steps, plus the wait in the queue (or, while
 * the shop checks the payment, that check instead).
 */
type StepName = TimelineStatus | 'queue' | 'checking';

/** What the buyer is told while the shop checks the payment: never why. */
export const BEING_CHECKED_TEXT =
  "We're checking this payment before delivery. You don't need to do anything; we'll mail you if we need something.";

const LABELS: Record<StepName, string> = {
  paid: 'Paid',
  queue: 'In the queue',
  checking: 'Checking the payment',
  claimed: 'Staff on the way',
  delivered: 'Delivered',
  received: 'Received',
  refunded: 'Refunded',
  disputed: 'Disputed',
  expired: 'Expired',
  cancelled: 'Cancelled',
};

const STOPS: StepName[] = ['refunded', 'disputed', 'expired', 'cancelled'];

const day = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' });
const clock = new Intl.DateTimeFormat('en-US', { timeStyle: 'short' });

type Step = {
  name: StepName;
  /** When it happened; null for a step still to come, or the queue (which has no moment). */
  at: string | null;
  state: 'done' | 'current' | 'upcoming';
  note?: ReactNode;
};

function queueNote(position: number | null, late: boolean): ReactNode {
  if (position === null) return undefined;
  if (late) {
    // the promise is broken: say so, with the same place staff see
    return (
      <span data-testid="queue-position">
        Taking longer than usual: you are <strong>number {position}</strong> in line
      </span>
    );
  }
  return (
    <span data-testid="queue-position">
      <strong>{queueText(position)}</strong> in the delivery queue
    </span>
  );
}

/**
 * The happy way, Paid → In the queue → Staff on the way → Delivered, with where the order stands.
 * Staff on the way is the claim that holds now (`delivery.claimed_at`): a claim staff released
 * puts the order back in the queue. While the shop checks the payment, that check stands where
 * the queue would, without a place in it.
 */
function happySteps(order: TrackedOrder): Step[] {
  const at = (status: TimelineStatus) =>
    order.timeline.findLast((step) => step.status === status)?.at ?? null;
  const paidAt = at('paid') ?? order.paid_at;
  if (order.status === 'delivered') {
    return [
      { name: 'paid', at: paidAt, state: 'done' },
      { name: 'queue', at: null, state: 'done' },
      { name: 'claimed', at: at('claimed'), state: 'done' },
      { name: 'delivered', at: at('delivered') ?? order.delivered_at, state: 'current' },
    ];
  }
  if (order.being_checked) {
    return [
      { name: 'paid', at: paidAt, state: 'done' },
      {
        name: 'checking',
        at: null,
        state: 'current',
        note: <span data-testid="being-checked">{BEING_CHECKED_TEXT}</span>,
      },
      { name: 'claimed', at: null, state: 'upcoming' },
      { name: 'delivered', at: null, state: 'upcoming' },
    ];
  }
  const claimedAt = order.delivery.claimed_at;
  if (claimedAt !== null) {
    return [
      { name: 'paid', at: paidAt, state: 'done' },
      { name: 'queue', at: null, state: 'done' },
      {
        name: 'claimed',
        at: claimedAt,
        state: 'current',
        note: order.delivery.staff_name ? `${order.delivery.staff_name} has your order` : null,
      },
      { name: 'delivered', at: null, state: 'upcoming' },
    ];
  }
  return [
    { name: 'paid', at: paidAt, state: 'done' },
    {
      name: 'queue',
      at: null,
      state: 'current',
      note: queueNote(order.queue_position, order.over_promise),
    },
    { name: 'claimed', at: null, state: 'upcoming' },
    { name: 'delivered', at: null, state: 'upcoming' },
  ];
}

/** A refund, dispute, expiry or cancellation ends the way: only what happened is shown. */
function endedSteps(order: TrackedOrder): Step[] {
  return order.timeline.map((step, index, all) => ({
    name: step.status,
    at: step.at,
    state: index === all.length - 1 ? 'current' : 'done',
  }));
}

function steps(order: TrackedOrder): Step[] {
  if (order.status === 'paid' || order.status === 'delivered') return happySteps(order);
  return endedSteps(order);
}

function StepTime({ step }: { step: Step }) {
  if (step.at) {
    const at = new Date(step.at);
    // "Nov 26, 2026, 10:57 AM"; a narrow screen breaks it between the day and the hour
    return (
      <time className="order-timeline__time" dateTime={step.at}>
        <span className="order-timeline__time-part">{day.format(at)},</span>{' '}
        <span className="order-timeline__time-part">{clock.format(at)}</span>
      </time>
    );
  }
  const text = { done: 'Done', current: 'Now', upcoming: 'Not yet' }[step.state];
  return <span className="order-timeline__time">{text}</span>;
}

export function OrderTimeline({ order }: { order: TrackedOrder }) {
  const all = steps(order);
  if (all.length === 0) return null;
  return (
    <ol className="order-timeline" aria-label="Order progress">
      {all.map((step, index) => {
        const classes = [
          'order-timeline__step',
          step.state !== 'upcoming' && 'order-timeline__step--done',
          step.state === 'current' && 'order-timeline__step--current',
          STOPS.includes(step.name) && 'order-timeline__step--stop',
        ];
        return (
          <li
            key={`${step.name}-${index}`}
            className={classes.filter(Boolean).join(' ')}
            aria-current={step.state === 'current' ? 'step' : undefined}
          >
            <span className="order-timeline__dot" aria-hidden="true" />
            <span className="order-timeline__label">{LABELS[step.name] ?? step.name}</span>
            <StepTime step={step} />
            {step.note ? <span className="order-timeline__note">{step.note}</span> : null}
          </li>
        );
      })}
    </ol>
  );
}
