import type { TFunction } from 'i18next';
import type { ReactNode } from 'react';
import { Trans, useTranslation } from 'react-i18next';

import type { TimelineStatus, TrackedOrder } from '@/features/checkout/api/get-tracked-order';
import { queueText } from '@/features/checkout/utils/order-key';
import { currentLanguage } from '@/lib/i18n/format';

import './order-timeline.css';

/**
 * A step of the order's way: the server's timeline steps, plus the wait in the queue (or, while
 * the shop checks the payment, that check instead).
 */
type StepName = TimelineStatus | 'queue' | 'checking';

function labels(t: TFunction<'pages'>): Record<StepName, string> {
  return {
    paid: t('timeline.paid'),
    queue: t('timeline.queue'),
    checking: t('timeline.checking'),
    claimed: t('timeline.claimed'),
    delivered: t('timeline.delivered'),
    received: t('timeline.received'),
    refunded: t('timeline.refunded'),
    disputed: t('timeline.disputed'),
    expired: t('timeline.expired'),
    cancelled: t('timeline.cancelled'),
  };
}

const STOPS: StepName[] = ['refunded', 'disputed', 'expired', 'cancelled'];

type Step = {
  name: StepName;
  /** When it happened; null for a step still to come, or the queue (which has no moment). */
  at: string | null;
  state: 'done' | 'current' | 'upcoming';
  note?: ReactNode;
};

function queueNote(t: TFunction<'pages'>, position: number | null, late: boolean): ReactNode {
  if (position === null) return undefined;
  if (late) {
    // the promise is broken: say so, with the same place staff see
    return (
      <span data-testid="queue-position">
        <Trans
          t={t}
          i18nKey="timeline.late"
          values={{ place: position }}
          components={{ strong: <strong /> }}
        />
      </span>
    );
  }
  return (
    <span data-testid="queue-position">
      <Trans
        t={t}
        i18nKey="timeline.inQueue"
        values={{ place: queueText(t, position) }}
        components={{ strong: <strong /> }}
      />
    </span>
  );
}

/**
 * The happy way, Paid → In the queue → Staff on the way → Delivered, with where the order stands.
 * Staff on the way is the claim that holds now (`delivery.claimed_at`): a claim staff released
 * puts the order back in the queue. While the shop checks the payment, that check stands where
 * the queue would, without a place in it.
 */
function happySteps(t: TFunction<'pages'>, order: TrackedOrder): Step[] {
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
        note: <span data-testid="being-checked">{t('timeline.beingChecked')}</span>,
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
        note: order.delivery.staff_name
          ? t('timeline.hasYourOrder', { staff: order.delivery.staff_name })
          : null,
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
      note: queueNote(t, order.queue_position, order.over_promise),
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

function steps(t: TFunction<'pages'>, order: TrackedOrder): Step[] {
  if (order.status === 'paid' || order.status === 'delivered') return happySteps(t, order);
  return endedSteps(order);
}

function StepTime({ step }: { step: Step }) {
  const { t } = useTranslation('pages');
  if (step.at) {
    const at = new Date(step.at);
    const locale = currentLanguage();
    const day = new Intl.DateTimeFormat(locale, { dateStyle: 'medium' });
    const clock = new Intl.DateTimeFormat(locale, { timeStyle: 'short' });
    // "Nov 26, 2026, 10:57 AM"; a narrow screen breaks it between the day and the hour
    return (
      <time className="order-timeline__time" dateTime={step.at}>
        <span className="order-timeline__time-part">{day.format(at)},</span>{' '}
        <span className="order-timeline__time-part">{clock.format(at)}</span>
      </time>
    );
  }
  const text = {
    done: t('steps.done'),
    current: t('steps.now'),
    upcoming: t('timeline.notYet'),
  }[step.state];
  return <span className="order-timeline__time">{text}</span>;
}

function stepClasses(step: Step): string {
  const classes = [
    'order-timeline__step',
    step.state !== 'upcoming' && 'order-timeline__step--done',
    step.state === 'current' && 'order-timeline__step--current',
    STOPS.includes(step.name) && 'order-timeline__step--stop',
  ];
  return classes.filter(Boolean).join(' ');
}

export function OrderTimeline({ order }: { order: TrackedOrder }) {
  const { t } = useTranslation('pages');
  const all = steps(t, order);
  const names = labels(t);
  if (all.length === 0) return null;
  return (
    <ol className="order-timeline" aria-label={t('timeline.label')}>
      {all.map((step, index) => {
        return (
          <li
            key={`${step.name}-${index}`}
            className={stepClasses(step)}
            aria-current={step.state === 'current' ? 'step' : undefined}
          >
            <span className="order-timeline__dot" aria-hidden="true" />
            <span className="order-timeline__label">{names[step.name] ?? step.name}</span>
            <StepTime step={step} />
            {step.note ? <span className="order-timeline__note">{step.note}</span> : null}
          </li>
        );
      })}
    </ol>
  );
}
