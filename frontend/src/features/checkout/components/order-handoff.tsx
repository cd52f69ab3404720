import type { ReactNode } from 'react';

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

/**
 * The buyer's part of the handoff while the order is paid: waiting in the queue, then who is on
 * the way with the private server to join, and "I'm in the game".
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
          {ticket ? (
            <p>
              <ExternalLink href={ticket}>Open your Discord ticket</ExternalLink>
            </p>
          ) : null}
        </>
      ) : (
        <p>
          A member of staff picks up your order soon: delivery usually takes {deliveryTime}. This
          page updates by itself; when staff pick it up, the link to their private server shows
          here.
        </p>
      )}
      <ReadyButton order={order} orderKey={orderKey} />
    </section>
  );
}
