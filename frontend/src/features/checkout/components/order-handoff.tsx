import { useEffect, useState, type ReactNode } from 'react';

import { Button, buttonClassName } from '@/components/ui/button';
import { ExternalLink } from '@/components/ui/external-link';
import type { TrackedOrder } from '@/features/checkout/api/get-tracked-order';
import { useBuyerStep } from '@/features/checkout/api/buyer-step';
import { errorMessage } from '@/lib/api-client';

const clock = new Intl.DateTimeFormat('en-US', { timeStyle: 'short' });

type OrderHandoffProps = {
  /** A paid order. */
  order: TrackedOrder;
  orderKey: string | null;
  /** The order's delivery promise, "under N minutes". */
  deliveryTime: ReactNode;
};

/** "I'm in the game" until the buyer has said so, then when they did. */
function ReadyButton({ order, orderKey }: { order: TrackedOrder; orderKey: string | null }) {
  const ready = useBuyerStep(order.id, orderKey, 'ready');
  const readyAt = order.delivery.buyer_ready_at;
  return (
    <div className="order-handoff__ready">
      {readyAt === null ? (
        <>
          <Button size="lg" fullWidth loading={ready.isPending} onClick={() => ready.mutate()}>
            I&apos;m in the game
          </Button>
          <p className="order-handoff__hint">
            Press it once you are in Grow a Garden, so staff know you are waiting.
          </p>
        </>
      ) : (
        <p className="order-handoff__said" role="status">
          Staff know you are in the game (since{' '}
          <time dateTime={readyAt}>{clock.format(new Date(readyAt))}</time>).
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
  const left = useCountdown(joinBy);
  // the server's word (its no-show job) or the clock here, whichever says it first
  const over = noShow || left === '0:00';
  return (
    <p className="order-handoff__join-by" data-testid="join-by" role="timer" aria-live="off">
      {over ? (
        <>
          Your time to join is up. Join now and press &ldquo;I&apos;m in the game&rdquo;: staff may
          otherwise give your turn to the next buyer and pick your order up again later.
        </>
      ) : (
        <>
          Join within <strong>{left}</strong> (by{' '}
          <time dateTime={joinBy}>{clock.format(new Date(joinBy))}</time>), or staff may give your
          turn to the next buyer.
        </>
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
  return (
    <section className="order-handoff" aria-labelledby="order-handoff-title" data-keep-clear>
      <h2 id="order-handoff-title" className="order-page__subtitle">
        {claimed ? `${staff ?? 'Staff'} is on the way` : 'Waiting for staff'}
      </h2>
      {claimed ? (
        <>
          <p>
            Join the private server in Grow a Garden with your Roblox account{' '}
            <strong>{order.roblox_username}</strong>: {staff ?? 'a member of staff'} meets you there
            and hands over your items.
          </p>
          {server ? (
            <ExternalLink
              href={server}
              className={buttonClassName({ size: 'lg', fullWidth: true })}
              data-testid="private-server-link"
            >
              Join the private server
            </ExternalLink>
          ) : null}
          {order.join_by ? <JoinBy joinBy={order.join_by} noShow={order.delivery.no_show} /> : null}
          {ticket ? (
            <p>
              <ExternalLink href={ticket}>Open your Discord ticket</ExternalLink>
            </p>
          ) : null}
          <ReadyButton order={order} orderKey={orderKey} />
        </>
      ) : order.delivery.released ? (
        <p data-testid="released">
          {order.delivery.released.staff_name ?? 'The member of staff'} could not deliver it this
          time and put it back in line, saying: &ldquo;{order.delivery.released.reason}&rdquo;
          Nothing is lost: it keeps its place by payment
          {order.queue_position !== null ? ` (you are number ${order.queue_position})` : ''}, and
          the next member of staff picks it up; their private server shows here when they do.
        </p>
      ) : order.over_promise ? (
        <p data-testid="over-promise">
          This is taking longer than usual (we aim for {deliveryTime}), sorry.
          {order.queue_position !== null
            ? ` You are number ${order.queue_position} in line; `
            : ' '}
          this page updates by itself, and the link to the private server shows here as soon as a
          member of staff picks your order up.
        </p>
      ) : (
        <p>
          A member of staff picks up your order soon: delivery usually takes {deliveryTime}. This
          page updates by itself; when staff pick it up, the link to their private server shows
          here.
        </p>
      )}
    </section>
  );
}
