import { Link, useParams, useSearchParams } from 'react-router';

import { Badge, type BadgeTone } from '@/components/ui/badge';
import { buttonClassName } from '@/components/ui/button';
import { ExternalLink } from '@/components/ui/external-link';
import { Skeleton } from '@/components/ui/skeleton';
import { paths } from '@/config/paths';
import { HelpChatButton } from '@/features/chat/components/help-chat-button';
import { useTrackedOrder, type TrackedOrder } from '@/features/checkout/api/get-tracked-order';
import { DeliverySteps } from '@/features/checkout/components/delivery-steps';
import { OrderHandoff } from '@/features/checkout/components/order-handoff';
import { OrderTimeline } from '@/features/checkout/components/order-timeline';
import { ReceivedButton } from '@/features/checkout/components/received-button';
import { TicketProblem } from '@/features/checkout/components/ticket-problem';
import { useOrderStream } from '@/features/checkout/hooks/use-order-stream';
import { OrderMessagesPanel } from '@/features/order-messages/components/order-messages-panel';
import { ReviewForm } from '@/features/reviews/components/review-form';
import { useDiscordInvite } from '@/features/site/api/get-site';
import { DeliveryTime } from '@/features/site/components/delivery-time';
import { ApiError } from '@/lib/api-client';
import { formatPrice } from '@/lib/money';

import './order.css';

const TONES: Record<string, BadgeTone> = {
  pending: 'warning',
  paid: 'brand',
  delivered: 'brand',
  refunded: 'neutral',
  disputed: 'danger',
  expired: 'danger',
  cancelled: 'danger',
};

const EXPLANATIONS: Record<string, string> = {
  pending: 'Waiting for the payment provider to confirm your payment.',
  paid: 'Your payment is confirmed. A member of staff meets you in a private server in Grow a Garden and hands your items over.',
  delivered: 'Your items have been delivered. Enjoy!',
  refunded: 'This order was refunded. The money goes back the way you paid.',
  disputed: 'The payment of this order is disputed with the bank.',
  expired: 'The payment session expired before it was paid. Nothing was charged.',
  cancelled: 'This order was cancelled. Nothing was charged.',
};

/** The statuses whose page shows the script: the ones on the way to a delivery, or past it. */
const FOLLOWS_STEPS = new Set(['pending', 'paid', 'delivered']);

const when = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });

/** Where to ask about the order: its Discord ticket, the Discord server, or the help chat. */
function Questions({ order, invite }: { order: TrackedOrder; invite: string | null }) {
  const ticket = order.delivery.ticket_url;
  return (
    <p className="order-page__questions">
      Questions about this order?{' '}
      {ticket ? (
        <>
          Ask in <ExternalLink href={ticket}>your Discord ticket</ExternalLink>.
        </>
      ) : invite ? (
        <>
          Ask us on <ExternalLink href={invite}>our Discord server</ExternalLink>.
        </>
      ) : (
        <>
          <HelpChatButton>Ask us in the help chat</HelpChatButton>.
        </>
      )}
    </p>
  );
}

function Delivered({ order, orderKey }: { order: TrackedOrder; orderKey: string | null }) {
  const staff = order.delivery.staff_name;
  const proof = order.delivery.proof_picture;
  return (
    <>
      <p className="order-page__delivered" data-testid="delivered">
        {staff ? `Delivered by ${staff}` : 'Delivered'}
        {order.delivered_at ? (
          <>
            {' '}
            on{' '}
            <time dateTime={order.delivered_at}>{when.format(new Date(order.delivered_at))}</time>
          </>
        ) : null}
        {proof ? '. The picture staff took of your delivery:' : '.'} Photos of our deliveries are on
        the <Link to={paths.proofs.getHref()}>proofs of delivery</Link> page.
      </p>
      {proof ? (
        <a className="order-page__proof" href={proof} target="_blank" rel="noreferrer">
          <img src={proof} alt={`Proof of delivery of order #${order.id}`} loading="lazy" />
        </a>
      ) : null}
      <ReceivedButton order={order} orderKey={orderKey} />
    </>
  );
}

type DetailsProps = {
  order: TrackedOrder;
  orderKey: string | null;
  /** The order's heading: 1 on its own page, 2 under the success page's. */
  level: 1 | 2;
};

/** What was bought and paid: the items, discount, fee, total and the Roblox name. */
function Receipt({ order }: { order: TrackedOrder }) {
  return (
    <section className="order-page__card" aria-labelledby="order-items-title">
      <h2 id="order-items-title" className="order-page__subtitle">
        Items
      </h2>
      <ul className="order-page__items" aria-label="Items">
        {order.items.map((item) => (
          <li key={item.id} className="order-page__item">
            <span>
              {item.qty} × {item.name}
            </span>
            <span>{formatPrice(item.unit_price * item.qty)}</span>
          </li>
        ))}
      </ul>
      <dl className="order-page__amounts" data-keep-clear>
        {order.discount > 0 ? (
          <div>
            <dt>Discount</dt>
            <dd>−{formatPrice(order.discount)}</dd>
          </div>
        ) : null}
        <div>
          <dt>Processing fee</dt>
          <dd>{formatPrice(order.fee)}</dd>
        </div>
        <div className="order-page__total">
          <dt>Total</dt>
          <dd>{formatPrice(order.total)}</dd>
        </div>
        <div>
          <dt>Roblox username</dt>
          <dd>{order.roblox_username}</dd>
        </div>
      </dl>
    </section>
  );
}

function Details({ order, orderKey, level }: DetailsProps) {
  const Title = level === 1 ? 'h1' : 'h2';
  const invite = useDiscordInvite();
  const paid = order.status === 'paid';
  // while the shop checks the payment nobody is on the way: nothing to do, no handoff
  const waiting = paid && !order.being_checked;
  return (
    <>
      <section className="order-page__card" aria-labelledby="order-title">
        <div className="order-page__header">
          <Title id="order-title" className="order-page__title">
            Order #{order.id}
          </Title>
          <Badge tone={TONES[order.status] ?? 'neutral'} data-testid="order-page-status">
            {order.status_label || order.status}
          </Badge>
        </div>
        <p className="order-page__explanation" role="status">
          {order.being_checked ? 'Your payment arrived.' : (EXPLANATIONS[order.status] ?? '')}
        </p>
        <OrderTimeline order={order} />
        {waiting ? (
          <OrderHandoff
            order={order}
            orderKey={orderKey}
            deliveryTime={<DeliveryTime minutes={order.estimate_minutes} />}
          />
        ) : null}
        {order.status === 'delivered' ? <Delivered order={order} orderKey={orderKey} /> : null}
        {FOLLOWS_STEPS.has(order.status) ? (
          <DeliverySteps
            steps={order.steps}
            title={order.status === 'pending' ? 'What happens next' : 'Your steps'}
            level={level === 1 ? 2 : 3}
          />
        ) : null}
        <Questions order={order} invite={invite} />
      </section>

      <OrderMessagesPanel
        orderId={order.id}
        orderKey={orderKey}
        open={paid || order.status === 'delivered'}
        claimed={waiting && order.delivery.claimed_at !== null}
      />

      {waiting && order.delivery.ticket_problem !== null ? (
        <TicketProblem
          order={order}
          orderKey={orderKey}
          discordInviteUrl={invite}
          helpChat={<HelpChatButton>Ask us in the help chat</HelpChatButton>}
        />
      ) : null}

      <Receipt order={order} />

      {order.status === 'delivered' ? (
        <section className="order-page__card" aria-labelledby="order-review-title">
          <h2 id="order-review-title" className="order-page__subtitle">
            How did we do?
          </h2>
          <ReviewForm orderId={order.id} orderKey={orderKey} />
        </section>
      ) : null}
    </>
  );
}

type TrackedOrderViewProps = {
  id: number;
  orderKey: string | null;
  /** Just paid (the success page): asked every 2 s until the payment is confirmed, and its
   * headings sit under the page's own. */
  confirming?: boolean;
};

/**
 * An order as its buyer follows it, live: status, the handoff, its steps, messages with staff,
 * the items and the review. The order page and the success page both show it.
 */
export function TrackedOrderView({ id, orderKey, confirming = false }: TrackedOrderViewProps) {
  const order = useTrackedOrder(id, orderKey, { confirming });
  useOrderStream(id, orderKey, order.data !== undefined);
  if (order.data) {
    return <Details order={order.data} orderKey={orderKey} level={confirming ? 2 : 1} />;
  }
  if (order.error) {
    const notFound = order.error instanceof ApiError && order.error.isNotFound;
    const Title = confirming ? 'h2' : 'h1';
    return (
      <section className="order-page__card" aria-labelledby="order-title">
        <Title id="order-title" className="order-page__title">
          {notFound ? 'Order not found' : 'Something went wrong'}
        </Title>
        <p className="order-page__explanation" role="alert">
          {notFound
            ? 'This link does not open an order. Use the full link from your receipt e-mail, or log in to see your orders.'
            : 'We could not load this order. Please try again in a moment.'}
        </p>
      </section>
    );
  }
  return (
    <section className="order-page__card" aria-busy="true" aria-label={`Loading order #${id}`}>
      <Skeleton height="2rem" width="40%" />
      <Skeleton height="1rem" />
      <Skeleton height="6rem" />
    </section>
  );
}

function orderIdOf(raw: string | undefined): number | null {
  if (!raw || !/^\d{1,15}$/.test(raw)) return null;
  const id = Number(raw);
  return id > 0 ? id : null;
}

/** /orders/:id?key=…: an order's page, opened from the receipt's link in any browser. */
export function OrderRoute() {
  const params = useParams();
  const [search] = useSearchParams();
  const id = orderIdOf(params.id);
  const key = search.get('key');
  return (
    <div className="container order-page">
      <title>{id ? `Order #${id} · Garden Shop` : 'Order · Garden Shop'}</title>
      {id !== null ? (
        <TrackedOrderView id={id} orderKey={key} />
      ) : (
        <section className="order-page__card">
          <h1 className="order-page__title">Order not found</h1>
        </section>
      )}
      <div className="order-page__actions">
        <Link to={paths.home.getHref()} className={buttonClassName({ variant: 'secondary' })}>
          Back to the shop
        </Link>
      </div>
    </div>
  );
}
