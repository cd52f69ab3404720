import type { TFunction } from 'i18next';
import { Trans, useTranslation } from 'react-i18next';
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
import { useDiscordInvite, useSite } from '@/features/site/api/get-site';
import { DeliveryTime } from '@/features/site/components/delivery-time';
import { ApiError } from '@/lib/api-client';
import { currentLanguage } from '@/lib/i18n/format';
import { formatMoney } from '@/lib/money';
import { orderStatusLabel } from '@/lib/order-status';

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

function explanation(
  t: TFunction<'pages'>,
  {
    status,
    awaiting_payment,
    pay_by,
  }: Pick<TrackedOrder, 'status' | 'awaiting_payment' | 'pay_by'>,
): string {
  // a voucher or bank debit: the order waits for the money until the method's deadline
  if (awaiting_payment && pay_by) {
    return t('order.explanation.awaitingPayment', { when: formatWhen(pay_by) });
  }
  const explanations: Record<string, string> = {
    pending: t('order.explanation.pending'),
    paid: t('order.explanation.paid'),
    delivered: t('order.explanation.delivered'),
    refunded: t('order.explanation.refunded'),
    disputed: t('order.explanation.disputed'),
    expired: t('order.explanation.expired'),
    cancelled: t('order.explanation.cancelled'),
  };
  return explanations[status] ?? '';
}

/** The statuses whose page shows the script: the ones on the way to a delivery, or past it. */
const FOLLOWS_STEPS = new Set(['pending', 'paid', 'delivered']);

/** "27 Nov 2026, 10:57" the viewer's way. */
function formatWhen(at: string): string {
  return new Intl.DateTimeFormat(currentLanguage(), {
    dateStyle: 'medium',
    timeStyle: 'short',
  }).format(new Date(at));
}

/** Where to ask about the order: its Discord ticket, the Discord server, or the help chat. */
function Questions({ order, invite }: { order: TrackedOrder; invite: string | null }) {
  const { t } = useTranslation('pages');
  const ticket = order.delivery.ticket_url;
  return (
    <p className="order-page__questions">
      {ticket ? (
        <Trans
          t={t}
          i18nKey="order.questions.ticket"
          components={{ discord: <ExternalLink href={ticket} /> }}
        />
      ) : invite ? (
        <Trans
          t={t}
          i18nKey="order.questions.discord"
          components={{ discord: <ExternalLink href={invite} /> }}
        />
      ) : (
        <Trans
          t={t}
          i18nKey="order.questions.chat"
          components={{ chat: <HelpChatButton>{''}</HelpChatButton> }}
        />
      )}
    </p>
  );
}

function Delivered({ order, orderKey }: { order: TrackedOrder; orderKey: string | null }) {
  const { t } = useTranslation('pages');
  const staff = order.delivery.staff_name;
  const proof = order.delivery.proof_picture;
  const at = order.delivered_at;
  const time = <time dateTime={at ?? undefined} />;
  const when = at ? formatWhen(at) : '';
  return (
    <>
      <p className="order-page__delivered" data-testid="delivered">
        {staff && at ? (
          <Trans
            t={t}
            i18nKey="order.delivered.byStaffOn"
            values={{ staff, when }}
            components={{ time }}
          />
        ) : staff ? (
          t('order.delivered.byStaff', { staff })
        ) : at ? (
          <Trans t={t} i18nKey="order.delivered.on" values={{ when }} components={{ time }} />
        ) : (
          t('order.delivered.plain')
        )}{' '}
        {proof ? t('order.delivered.pictureBelow') : null}{' '}
        <Trans
          t={t}
          i18nKey="order.delivered.proofsPage"
          components={{ proofs: <Link to={paths.proofs.getHref()} /> }}
        />
      </p>
      {proof ? (
        <a className="order-page__proof" href={proof} target="_blank" rel="noreferrer">
          <img src={proof} alt={t('order.delivered.proofAlt', { id: order.id })} loading="lazy" />
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

/** Units of the paid currency for `qty` units at `unit` (to the cent, as the server sums). */
function linePaid(unit: number, qty: number): number {
  return Math.round(unit * 100 * qty) / 100;
}

/**
 * What was bought and paid: the items and the total in the currency the buyer paid in; the
 * discount, fee and total of record in the shop's base currency, beside them when the buyer
 * paid in another (the API keeps those in the base only); and the Roblox name.
 */
function Receipt({ order }: { order: TrackedOrder }) {
  const { t } = useTranslation('pages');
  const base = useSite().data?.currencies[0]?.code ?? order.currency;
  const paid = order.currency;
  const converted = paid !== base;
  return (
    <section className="order-page__card" aria-labelledby="order-items-title">
      <h2 id="order-items-title" className="order-page__subtitle">
        {t('order.receipt.items')}
      </h2>
      <ul className="order-page__items" aria-label={t('order.receipt.items')}>
        {order.items.map((item) => (
          <li key={item.id} className="order-page__item">
            <span>{t('order.receipt.line', { qty: item.qty, name: item.name })}</span>
            <span>{formatMoney(linePaid(item.unit_price_paid, item.qty), paid)}</span>
          </li>
        ))}
      </ul>
      <dl className="order-page__amounts" data-keep-clear>
        {!converted && order.discount > 0 ? (
          <div>
            <dt>{t('order.receipt.discount')}</dt>
            <dd>−{formatMoney(order.discount, base)}</dd>
          </div>
        ) : null}
        {!converted ? (
          <div>
            <dt>{t('order.receipt.fee')}</dt>
            <dd>{formatMoney(order.fee, base)}</dd>
          </div>
        ) : null}
        <div className="order-page__total">
          <dt>{converted ? t('order.receipt.totalPaid') : t('order.receipt.total')}</dt>
          <dd data-testid="order-amount-paid">{formatMoney(order.amount_paid, paid)}</dd>
        </div>
        <div>
          <dt>{t('order.receipt.roblox')}</dt>
          <dd>{order.roblox_username}</dd>
        </div>
      </dl>
      {converted ? (
        <>
          <p className="order-page__hint" data-testid="order-rate">
            {t('order.receipt.inBase', {
              base,
              rate: new Intl.NumberFormat(currentLanguage(), {
                maximumFractionDigits: 6,
              }).format(Number(order.rate)),
              currency: paid,
            })}
          </p>
          <dl className="order-page__amounts order-page__amounts--base">
            {order.discount > 0 ? (
              <div>
                <dt>{t('order.receipt.discount')}</dt>
                <dd>−{formatMoney(order.discount, base)}</dd>
              </div>
            ) : null}
            <div>
              <dt>{t('order.receipt.fee')}</dt>
              <dd>{formatMoney(order.fee, base)}</dd>
            </div>
            <div>
              <dt>{t('order.receipt.total')}</dt>
              <dd>{formatMoney(order.total, base)}</dd>
            </div>
          </dl>
        </>
      ) : null}
    </section>
  );
}

function Details({ order, orderKey, level }: DetailsProps) {
  const { t } = useTranslation('pages');
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
            {t('order.title', { id: order.id })}
          </Title>
          <Badge tone={TONES[order.status] ?? 'neutral'} data-testid="order-page-status">
            {orderStatusLabel(t, order.status)}
          </Badge>
        </div>
        <p className="order-page__explanation" role="status">
          {order.being_checked ? t('order.paymentArrived') : explanation(t, order)}
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
            estimateMinutes={order.estimate_minutes}
            title={order.status === 'pending' ? t('order.whatHappensNext') : t('order.yourSteps')}
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
          helpChat={<HelpChatButton>{t('order.askInChat')}</HelpChatButton>}
        />
      ) : null}

      <Receipt order={order} />

      {order.status === 'delivered' ? (
        <section className="order-page__card" aria-labelledby="order-review-title">
          <h2 id="order-review-title" className="order-page__subtitle">
            {t('order.howDidWeDo')}
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
  const { t } = useTranslation('pages');
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
          {notFound ? t('order.notFound') : t('order.failed')}
        </Title>
        <p className="order-page__explanation" role="alert">
          {notFound ? t('order.notFoundDetail') : t('order.failedDetail')}
        </p>
      </section>
    );
  }
  return (
    <section className="order-page__card" aria-busy="true" aria-label={t('order.loading', { id })}>
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
  const { t } = useTranslation('pages');
  const params = useParams();
  const [search] = useSearchParams();
  const id = orderIdOf(params.id);
  const key = search.get('key');
  const title = id ? t('order.title', { id }) : t('order.pageTitle');
  return (
    <div className="container order-page">
      <title>{t('common.pageTitle', { ns: 'translation', title })}</title>
      {id !== null ? (
        <TrackedOrderView id={id} orderKey={key} />
      ) : (
        <section className="order-page__card">
          <h1 className="order-page__title">{t('order.notFound')}</h1>
        </section>
      )}
      <div className="order-page__actions">
        <Link to={paths.home.getHref()} className={buttonClassName({ variant: 'secondary' })}>
          {t('order.backToShop')}
        </Link>
      </div>
    </div>
  );
}
