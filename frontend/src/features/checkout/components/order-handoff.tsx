import { useEffect, useState, type ReactElement } from 'react';
import { Trans, useTranslation } from 'react-i18next';

import { Button, buttonClassName } from '@/components/ui/button';
import { ExternalLink } from '@/components/ui/external-link';
import type { TrackedOrder } from '@/features/checkout/api/get-tracked-order';
import { useBuyerStep } from '@/features/checkout/api/buyer-step';
import { errorMessage } from '@/lib/api-client';
import { currentLanguage } from '@/lib/i18n/format';

/** "10:57" the viewer's way. */
function clockTime(at: string): string {
  return new Intl.DateTimeFormat(currentLanguage(), { timeStyle: 'short' }).format(new Date(at));
}

type OrderHandoffProps = {
  /** A paid order. */
  order: TrackedOrder;
  orderKey: string | null;
  /** The order's delivery promise, "under N minutes". */
  deliveryTime: ReactElement;
};

/** "I'm in the game" until the buyer has said so, then when they did. */
function ReadyButton({ order, orderKey }: { order: TrackedOrder; orderKey: string | null }) {
  const { t } = useTranslation('pages');
  const ready = useBuyerStep(order.id, orderKey, 'ready');
  const readyAt = order.delivery.buyer_ready_at;
  return (
    <div className="order-handoff__ready">
      {readyAt === null ? (
        <>
          <Button size="lg" fullWidth loading={ready.isPending} onClick={() => ready.mutate()}>
            {t('handoff.inGame')}
          </Button>
          <p className="order-handoff__hint">{t('handoff.inGameHint')}</p>
        </>
      ) : (
        <p className="order-handoff__said" role="status">
          <Trans
            t={t}
            i18nKey="handoff.staffKnow"
            values={{ time: clockTime(readyAt) }}
            components={{ time: <time dateTime={readyAt} /> }}
          />
        </p>
      )}
      {ready.isError ? (
        <p className="order-handoff__error" role="alert">
          {errorMessage(ready.error)}
        </p>
      ) : null}
    </div>
  );
}

/** Whole minutes and seconds from now until `until`, ticking every second; 0:00 once past. */
function useCountdown(until: string | null): string | null {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (until === null) return undefined;
    const timer = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(timer);
  }, [until]);
  if (until === null) return null;
  const left = Math.max(0, Math.floor((new Date(until).getTime() - now) / 1000));
  return `${Math.floor(left / 60)}:${String(left % 60).padStart(2, '0')}`;
}

/** The time left to join the member of staff, while they wait for the buyer. */
function JoinBy({ joinBy, noShow }: { joinBy: string; noShow: boolean }) {
  const { t } = useTranslation('pages');
  const left = useCountdown(joinBy);
  // the server's word (its no-show job) or the clock here, whichever says it first
  const over = noShow || left === '0:00';
  return (
    <p className="order-handoff__join-by" data-testid="join-by" role="timer" aria-live="off">
      {over ? (
        t('handoff.timeUp')
      ) : (
        <Trans
          t={t}
          i18nKey="handoff.joinWithin"
          values={{ left, time: clockTime(joinBy) }}
          components={{ strong: <strong />, time: <time dateTime={joinBy} /> }}
        />
      )}
    </p>
  );
}

/**
 * The buyer's part of the handoff while the order is paid: waiting in the queue, then who is on
 * the way with the private server to join (and by when), and "I'm in the game" once there is a
 * server to be in.
 */
export function OrderHandoff({ order, orderKey, deliveryTime }: OrderHandoffProps) {
  const { staff_name: staff, private_server_url: server, ticket_url: ticket } = order.delivery;
  const claimed = order.delivery.claimed_at !== null;
  const { t } = useTranslation('pages');
  const place = order.queue_position;
  return (
    <section className="order-handoff" aria-labelledby="order-handoff-title" data-keep-clear>
      <h2 id="order-handoff-title" className="order-page__subtitle">
        {claimed
          ? staff
            ? t('handoff.onTheWay', { staff })
            : t('handoff.staffOnTheWay')
          : t('handoff.waiting')}
      </h2>
      {claimed ? (
        <>
          <p>
            {staff ? (
              <Trans
                t={t}
                i18nKey="handoff.joinServer"
                values={{ roblox: order.roblox_username, staff }}
                components={{ strong: <strong /> }}
              />
            ) : (
              <Trans
                t={t}
                i18nKey="handoff.joinServerStaff"
                values={{ roblox: order.roblox_username }}
                components={{ strong: <strong /> }}
              />
            )}
          </p>
          {server ? (
            <ExternalLink
              href={server}
              className={buttonClassName({ size: 'lg', fullWidth: true })}
              data-testid="private-server-link"
            >
              {t('handoff.joinButton')}
            </ExternalLink>
          ) : null}
          {order.join_by ? <JoinBy joinBy={order.join_by} noShow={order.delivery.no_show} /> : null}
          {ticket ? (
            <p>
              <ExternalLink href={ticket}>{t('handoff.openTicket')}</ExternalLink>
            </p>
          ) : null}
          <ReadyButton order={order} orderKey={orderKey} />
        </>
      ) : order.delivery.released ? (
        <p data-testid="released">
          {order.delivery.released.staff_name
            ? t('handoff.released', {
                staff: order.delivery.released.staff_name,
                reason: order.delivery.released.reason,
              })
            : t('handoff.releasedStaff', { reason: order.delivery.released.reason })}{' '}
          {place !== null ? t('handoff.keepsPlaceNumber', { place }) : t('handoff.keepsPlace')}
        </p>
      ) : order.over_promise ? (
        <p data-testid="over-promise">
          <Trans t={t} i18nKey="handoff.late" components={{ time: deliveryTime }} />{' '}
          {place !== null ? t('handoff.lateNumber', { place }) : t('handoff.lateUpdates')}
        </p>
      ) : (
        <p>
          <Trans t={t} i18nKey="handoff.soon" components={{ time: deliveryTime }} />
        </p>
      )}
    </section>
  );
}
