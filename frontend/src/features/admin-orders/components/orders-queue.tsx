import { useId, useMemo, useState, type FormEvent, type ReactNode } from 'react';

import { Badge, type BadgeTone } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Field } from '@/components/ui/field';
import { AlertIcon, ExternalLinkIcon } from '@/components/ui/icons';
import { Modal } from '@/components/ui/modal';
import { minutesLabel } from '@/lib/duration';
import { formatMoney, formatPrice } from '@/lib/money';

import { useOrderAction, type OrderAction } from '@/features/admin-orders/api/order-actions';
import { DeliverDialog } from '@/features/admin-orders/components/deliver-dialog';
import { DeliveryProof } from '@/features/admin-orders/components/delivery-proof';
import type { AdminOrder } from '@/features/admin-orders/types';
import { sameBuyerOrders } from '@/features/admin-orders/utils/same-buyer';

import './orders-queue.css';

const dateTime = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });

const STATUS_TONES: Record<string, BadgeTone> = {
  paid: 'warning',
  delivered: 'brand',
  refunded: 'neutral',
  disputed: 'danger',
};

function RefundModal({
  order,
  onClose,
  onConfirm,
  pending,
}: {
  order: AdminOrder;
  onClose: () => void;
  onConfirm: () => void;
  pending: boolean;
}) {
  return (
    <ConfirmDialog
      open
      title={`Refund order #${order.id}?`}
      confirmLabel={`Refund ${formatPrice(order.total)}`}
      busy={pending}
      onConfirm={onConfirm}
      onCancel={onClose}
    >
      The whole payment goes back to the buyer through the payment provider it was paid with. This
      cannot be undone. The stock is not put back: change it on the inventory page if the items can
      be sold again.
    </ConfirmDialog>
  );
}

/** The most a release reason may hold (the server's limit). */
const RELEASE_REASON_MAX = 200;

/**
 * Release asks first, and for the reason the buyer is shown on their order page and mailed: one
 * tap next to Mark delivered must not un-claim a buyer who is waiting in the game.
 */
function ReleaseDialog({
  order,
  onClose,
  onConfirm,
  pending,
}: {
  order: AdminOrder;
  onClose: () => void;
  onConfirm: (reason: string) => void;
  pending: boolean;
}) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string>();
  const inGame = order.buyer_ready_at !== null;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = reason.trim();
    if (trimmed.length === 0) {
      setError('Tell the buyer why you are letting the order go.');
      return;
    }
    if (trimmed.length > RELEASE_REASON_MAX) {
      setError(`Please keep the reason under ${RELEASE_REASON_MAX} characters.`);
      return;
    }
    onConfirm(trimmed);
  };
  return (
    <Modal
      open
      onClose={() => (pending ? undefined : onClose())}
      title={`Release order #${order.id}?`}
    >
      <form className="release-dialog" aria-label="Release order" noValidate onSubmit={submit}>
        <p>
          {inGame ? 'The buyer is in the game waiting for you. ' : ''}
          The order goes back in line in its place by payment, for the next member of staff. The
          buyer sees your reason on their order page and gets it by mail.
        </p>
        <Field
          label="Reason the buyer sees"
          hint={`Up to ${RELEASE_REASON_MAX} characters.`}
          error={error}
          announceError
        >
          {(control) => (
            <textarea
              {...control}
              className="form-control"
              rows={3}
              maxLength={RELEASE_REASON_MAX}
              value={reason}
              onChange={(event) => {
                setReason(event.currentTarget.value);
                setError(undefined);
              }}
            />
          )}
        </Field>
        <div className="release-dialog__actions">
          <Button variant="secondary" onClick={onClose} disabled={pending}>
            Keep it
          </Button>
          <Button type="submit" variant="danger" loading={pending}>
            Release order
          </Button>
        </div>
      </form>
    </Modal>
  );
}

type OrderCardProps = {
  order: AdminOrder;
  currentUserId: number | null;
  /** Only a super_admin releases an order on a risk hold to the queue. */
  canReleaseHolds: boolean;
  onNeedsPrivateServer: (message: string) => void;
  /** The other paid orders of the same buyer in the list (see sameBuyerOrders). */
  sameBuyer: readonly number[];
  /** More of the order under its actions (e.g. its messages with the buyer). */
  extra?: ReactNode;
};

/**
 * An order on a risk hold: why (a fraud warning, a risky payment) and since when. It is out of the
 * queue until it is refunded (the advice after a fraud warning) or released to the queue.
 */
function HoldNote({ hold }: { hold: NonNullable<AdminOrder['hold']> }) {
  return (
    <div className="order-card__hold" role="note">
      <Badge tone="danger">{hold.reason_label}</Badge>
      <span>
        On hold since <time dateTime={hold.since}>{dateTime.format(new Date(hold.since))}</time>: do
        not deliver it.{' '}
        {hold.reason === 'fraud_warning'
          ? "The card's issuer warned of fraud; a refund avoids a dispute and its fee."
          : 'The payment provider rates this payment as risky.'}
      </span>
    </div>
  );
}

/** The buyer's Discord ticket, or why there is none. */
function Ticket({ order }: { order: AdminOrder }) {
  if (order.ticket_url) {
    return (
      <a className="order-card__ticket" href={order.ticket_url} target="_blank" rel="noreferrer">
        Open ticket
        <ExternalLinkIcon size={16} />
      </a>
    );
  }
  if (order.ticket_problem) {
    return (
      <p className="order-card__ticket-problem">
        <AlertIcon size={18} />
        <span>{order.ticket_problem}</span>
      </p>
    );
  }
  return null;
}

/** Who has the order: delivering it while paid, delivered it once done. */
export function claimLine(status: string, mine: boolean, name: string): string {
  if (status === 'paid')
    return mine ? 'You are delivering this order.' : `${name} is delivering this.`;
  if (status === 'delivered') return mine ? 'You delivered this order.' : `Delivered by ${name}.`;
  return mine ? 'You claimed this order.' : `Claimed by ${name}.`;
}

/** The buyer's other paid orders: links to their cards, to deliver them in one visit. */
function SameBuyer({ ids }: { ids: readonly number[] }) {
  if (ids.length === 0) return null;
  return (
    <p className="order-card__same-buyer">
      <strong>{ids.length + 1} orders from this buyer:</strong>{' '}
      {ids.map((id, index) => (
        <span key={id}>
          {index > 0 ? ', ' : null}
          <a href={`#order-${id}`}>#{id}</a>
        </span>
      ))}
    </p>
  );
}

/** What the order card shows of its state, worked out once for its parts. */
type CardState = {
  mine: boolean;
  claimedByOther: boolean;
  /** Paid and not on a risk hold: in the queue, to claim and deliver. */
  isPaid: boolean;
  readyMinutes: number | null;
  noShow: boolean;
};

function cardState(order: AdminOrder, currentUserId: number | null): CardState {
  const mine = order.claimed_by !== null && order.claimed_by.id === currentUserId;
  // on a risk hold: out of the queue, neither claimed nor delivered until it is released
  const isPaid = order.status === 'paid' && order.hold === null;
  return {
    mine,
    claimedByOther: order.claimed_by !== null && !mine,
    isPaid,
    readyMinutes: isPaid && order.buyer_ready_at !== null ? order.ready_minutes : null,
    noShow: isPaid && order.no_show,
  };
}

type Dialog = 'deliver' | 'refund' | 'release';

/** The card's buttons: what this member of staff can do with the order now. */
function OrderActions({
  order,
  state,
  canReleaseHolds,
  pending,
  claiming,
  open,
  perform,
}: {
  order: AdminOrder;
  state: CardState;
  canReleaseHolds: boolean;
  pending: boolean;
  claiming: boolean;
  open: (dialog: Dialog) => void;
  perform: (action: OrderAction) => void;
}) {
  const { isPaid, mine, claimedByOther, noShow } = state;
  const refund = (
    <Button variant="danger" size="sm" disabled={pending} onClick={() => open('refund')}>
      Refund
    </Button>
  );
  // A colleague's: nothing to press here, only who has it (said by the claim line).
  if (isPaid && claimedByOther) return null;
  if (isPaid && mine) {
    return (
      <div className="order-card__actions">
        <Button
          className="order-card__main-action"
          disabled={pending}
          onClick={() => open('deliver')}
        >
          Mark delivered
        </Button>
        {/* A no-show's Release sits beside its badge. */}
        {noShow ? null : <ReleaseButton variant="ghost" pending={pending} open={open} />}
        {refund}
      </div>
    );
  }
  if (isPaid) {
    return (
      <div className="order-card__actions">
        <Button
          className="order-card__main-action"
          loading={claiming}
          disabled={pending}
          onClick={() => perform({ kind: 'claim', id: order.id })}
        >
          Claim
        </Button>
        {refund}
      </div>
    );
  }
  if (order.hold) {
    return (
      <div className="order-card__actions">
        {canReleaseHolds ? (
          <Button
            variant="secondary"
            size="sm"
            disabled={pending}
            onClick={() => perform({ kind: 'release-hold', id: order.id })}
          >
            Release to queue
          </Button>
        ) : null}
        {refund}
        {canReleaseHolds ? null : (
          <p className="order-card__hold-hint">A super admin can release it to the queue.</p>
        )}
      </div>
    );
  }
  return order.status === 'delivered' ? <div className="order-card__actions">{refund}</div> : null;
}

function ReleaseButton({
  variant,
  pending,
  open,
}: {
  variant: 'ghost' | 'secondary';
  pending: boolean;
  open: (dialog: Dialog) => void;
}) {
  return (
    <Button variant={variant} size="sm" disabled={pending} onClick={() => open('release')}>
      Release
    </Button>
  );
}

/** The card's first line: number, status, place in line, how long it waits, the total. */
function OrderCardHead({
  order,
  titleId,
  isPaid,
}: {
  order: AdminOrder;
  titleId: string;
  isPaid: boolean;
}) {
  return (
    <div className="order-card__head">
      <h2 id={titleId} className="order-card__title">
        Order #{order.id}
      </h2>
      <Badge tone={STATUS_TONES[order.status] ?? 'neutral'}>{order.status_label}</Badge>
      {order.queue_position !== null ? (
        <span className="order-card__place" data-testid="queue-place">
          No. {order.queue_position} in line
        </span>
      ) : null}
      {isPaid && order.minutes_waiting !== null ? (
        <span
          className={`order-card__waiting${order.over_promise ? ' order-card__waiting--late' : ''}`}
          title={
            order.over_promise ? 'Longer than the shop promises: its buyer is told so' : undefined
          }
        >
          Waiting {minutesLabel(order.minutes_waiting)}
          {order.over_promise ? ' (late)' : null}
        </span>
      ) : null}
      <span className="order-card__total">
        {order.currency === 'USD' ? (
          formatPrice(order.total)
        ) : (
          // paid in another currency: what the buyer paid, and the dollars of record
          <>
            {formatMoney(order.amount_paid, order.currency, 'en')}{' '}
            <span className="order-card__base">({formatPrice(order.total)})</span>
          </>
        )}
      </span>
    </div>
  );
}

/** Who bought it: Roblox avatar and name, Discord, e-mail. */
function Buyer({ order }: { order: AdminOrder }) {
  return (
    <div className="order-card__buyer">
      {order.roblox_avatar_url ? (
        <img className="order-card__avatar" src={order.roblox_avatar_url} alt="" />
      ) : (
        <span className="order-card__avatar order-card__avatar--empty" aria-hidden="true">
          {(order.roblox_username ?? '?').charAt(0).toUpperCase()}
        </span>
      )}
      <div className="order-card__who">
        <p className="order-card__roblox">
          <span className="order-card__roblox-label">Roblox</span>
          <span className="order-card__roblox-name">{order.roblox_username ?? '—'}</span>
        </p>
        <dl className="order-card__facts">
          <div>
            <dt>Discord</dt>
            <dd>{order.discord_username ?? order.discord_id ?? '—'}</dd>
          </div>
          <div>
            <dt>E-mail</dt>
            <dd>{order.email ? <a href={`mailto:${order.email}`}>{order.email}</a> : '—'}</dd>
          </div>
        </dl>
      </div>
    </div>
  );
}

/** When it was delivered and by whom, with its proof. */
function Delivered({ order, mine }: { order: AdminOrder; mine: boolean }) {
  if (!order.delivered_at) return null;
  return (
    <>
      <p className="order-card__delivered">
        Delivered{' '}
        <time dateTime={order.delivered_at}>{dateTime.format(new Date(order.delivered_at))}</time>
        {order.claimed_by ? (mine ? ' by you' : ` by ${order.claimed_by.name}`) : null}
        {order.proof_id === null ? ', no proof linked.' : null}
      </p>
      {order.proof_id !== null ? <DeliveryProof proofId={order.proof_id} /> : null}
    </>
  );
}

/** The dialog the card has open, if any. */
function OrderDialog({
  dialog,
  order,
  pending,
  close,
  perform,
}: {
  dialog: Dialog | null;
  order: AdminOrder;
  pending: boolean;
  close: () => void;
  perform: (action: OrderAction) => void;
}) {
  const common = { order, pending, onClose: close };
  if (dialog === 'deliver')
    return (
      <DeliverDialog
        {...common}
        onConfirm={(proofId) => perform({ kind: 'deliver', id: order.id, proofId })}
      />
    );
  if (dialog === 'release')
    return (
      <ReleaseDialog
        {...common}
        onConfirm={(reason) => perform({ kind: 'release', id: order.id, reason })}
      />
    );
  if (dialog === 'refund')
    return <RefundModal {...common} onConfirm={() => perform({ kind: 'refund', id: order.id })} />;
  return null;
}

function DisputedNote() {
  return (
    <p className="order-card__claim" role="note">
      The buyer disputed this payment with their bank. Do not deliver it; it returns to the queue if
      the dispute is won.
    </p>
  );
}

/** Whether the buyer is in the game, and since when; or that they did not come (a no-show). */
function InGame({
  readyMinutes,
  noShow,
  release,
}: {
  readyMinutes: number | null;
  noShow: boolean;
  release: ReactNode;
}) {
  return (
    <>
      {readyMinutes !== null ? (
        <p className="order-card__ready">
          <span className="order-card__ready-dot" aria-hidden="true" />
          Ready in game for {minutesLabel(readyMinutes)}
        </p>
      ) : null}
      {noShow ? (
        <div className="order-card__no-show">
          <Badge tone="danger" className="order-card__no-show-badge">
            No show
          </Badge>
          <span>The buyer has not said they are in the game.</span>
          {release}
        </div>
      ) : null}
    </>
  );
}

function OrderCard({
  order,
  currentUserId,
  canReleaseHolds,
  onNeedsPrivateServer,
  sameBuyer,
  extra,
}: OrderCardProps) {
  const titleId = useId();
  const action = useOrderAction({ onNeedsPrivateServer });
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const state = cardState(order, currentUserId);
  const { mine, claimedByOther, isPaid, readyMinutes, noShow } = state;
  const held = order.hold;

  // The toasts are the mutation's own (they are said even when this card has left the list).
  const perform = (next: OrderAction) => action.mutate(next, { onSuccess: () => setDialog(null) });

  return (
    <li
      id={`order-${order.id}`}
      className={[
        'order-card',
        readyMinutes !== null && 'order-card--ready',
        noShow && 'order-card--no-show',
        isPaid && claimedByOther && 'order-card--colleague',
      ]
        .filter(Boolean)
        .join(' ')}
      aria-labelledby={titleId}
    >
      <OrderCardHead order={order} titleId={titleId} isPaid={isPaid} />

      <InGame
        readyMinutes={readyMinutes}
        noShow={noShow}
        release={
          mine ? (
            <ReleaseButton variant="secondary" pending={action.isPending} open={setDialog} />
          ) : null
        }
      />

      <Buyer order={order} />
      <SameBuyer ids={sameBuyer} />
      {held ? <HoldNote hold={held} /> : null}
      {isPaid || held ? <Ticket order={order} /> : null}

      <ul className="order-card__items" aria-label="Items">
        {order.items.map((item, index) => (
          <li key={`${item.name}-${index}`}>
            <span className="order-card__qty">{item.qty} ×</span> {item.name}
          </li>
        ))}
      </ul>

      <Delivered order={order} mine={mine} />

      {order.claimed_by && order.status !== 'delivered' ? (
        <p className={`order-card__claim${claimedByOther ? ' order-card__claim--other' : ''}`}>
          {claimLine(order.status, mine, order.claimed_by.name)}
        </p>
      ) : null}

      <OrderActions
        order={order}
        state={state}
        canReleaseHolds={canReleaseHolds}
        pending={action.isPending}
        claiming={action.isPending && action.variables?.kind === 'claim'}
        open={setDialog}
        perform={perform}
      />
      {order.status === 'disputed' ? <DisputedNote /> : null}

      {extra ? <div className="order-card__more">{extra}</div> : null}

      <OrderDialog
        dialog={dialog}
        order={order}
        pending={action.isPending}
        close={() => setDialog(null)}
        perform={perform}
      />
    </li>
  );
}

type OrdersQueueProps = {
  /** In the server's order (on the paid filter: by payment, the waiting ones numbered). */
  orders: AdminOrder[];
  /** Who is looking, to tell their own claims from others'. */
  currentUserId: number | null;
  /** The one looking is a super_admin: they may release held orders to the queue. */
  canReleaseHolds?: boolean;
  /** A claim was refused because the member of staff has no private server link. */
  onNeedsPrivateServer: (message: string) => void;
  /** More of each order, shown in its card under the actions (e.g. its messages). */
  renderExtra?: (order: AdminOrder) => ReactNode;
};

/** The delivery queue: one card per order with the buyer's details and the staff actions. */
export function OrdersQueue({
  orders,
  currentUserId,
  canReleaseHolds = false,
  onNeedsPrivateServer,
  renderExtra,
}: OrdersQueueProps) {
  const sameBuyer = useMemo(() => sameBuyerOrders(orders), [orders]);
  return (
    <ul className="orders-queue" aria-label="Orders">
      {orders.map((order) => (
        <OrderCard
          key={order.id}
          order={order}
          currentUserId={currentUserId}
          canReleaseHolds={canReleaseHolds}
          onNeedsPrivateServer={onNeedsPrivateServer}
          sameBuyer={sameBuyer.get(order.id) ?? NONE}
          extra={renderExtra?.(order)}
        />
      ))}
    </ul>
  );
}

const NONE: readonly number[] = [];
