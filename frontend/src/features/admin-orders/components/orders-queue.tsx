import { useId, useState } from 'react';

import { Badge, type BadgeTone } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Field } from '@/components/ui/field';
import { Modal } from '@/components/ui/modal';
import { formatPrice } from '@/lib/money';

import { useOrderAction, type OrderAction } from '@/features/admin-orders/api/order-actions';
import { useProofChoices } from '@/features/admin-orders/api/get-proof-choices';
import type { AdminOrder } from '@/features/admin-orders/types';

import './orders-queue.css';

const STATUS_TONES: Record<string, BadgeTone> = {
  paid: 'warning',
  delivered: 'brand',
  refunded: 'neutral',
  disputed: 'danger',
};

/** "4 min", "1 h 5 min". */
export function waitingLabel(minutes: number): string {
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return rest ? `${hours} h ${rest} min` : `${hours} h`;
}

function DeliverModal({
  order,
  onClose,
  onConfirm,
  pending,
}: {
  order: AdminOrder;
  onClose: () => void;
  onConfirm: (proofId: number | null) => void;
  pending: boolean;
}) {
  const proofs = useProofChoices({ enabled: true });
  const [proofId, setProofId] = useState('');
  return (
    <Modal
      open
      onClose={onClose}
      title={`Mark order #${order.id} delivered`}
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={pending}>
            Cancel
          </Button>
          <Button loading={pending} onClick={() => onConfirm(proofId ? Number(proofId) : null)}>
            Mark delivered
          </Button>
        </>
      }
    >
      <p>
        Deliver to <strong>{order.roblox_username ?? 'the buyer'}</strong> in game first. You can
        link a proof of delivery you posted.
      </p>
      <Field
        label="Proof of delivery"
        optional
        hint={
          proofs.isError
            ? 'The proofs could not be loaded; you can deliver without one.'
            : undefined
        }
      >
        {(control) => (
          <select
            {...control}
            className="form-control"
            value={proofId}
            disabled={proofs.isPending}
            onChange={(event) => setProofId(event.currentTarget.value)}
          >
            <option value="">No proof</option>
            {(proofs.data ?? []).map((proof) => (
              <option key={proof.id} value={proof.id}>
                {`#${proof.id} · ${proof.items}`}
              </option>
            ))}
          </select>
        )}
      </Field>
    </Modal>
  );
}

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

type OrderCardProps = {
  order: AdminOrder;
  currentUserId: number | null;
};

function OrderCard({ order, currentUserId }: OrderCardProps) {
  const titleId = useId();
  const action = useOrderAction();
  const [dialog, setDialog] = useState<'deliver' | 'refund' | null>(null);
  const mine = order.claimed_by !== null && order.claimed_by.id === currentUserId;
  const claimedByOther = order.claimed_by !== null && !mine;
  const isPaid = order.status === 'paid';
  const refundable = isPaid || order.status === 'delivered';

  // The toasts are the mutation's own (they are said even when this card has left the list).
  const perform = (next: OrderAction) => action.mutate(next, { onSuccess: () => setDialog(null) });

  return (
    <li className="order-card" aria-labelledby={titleId}>
      <div className="order-card__head">
        <h2 id={titleId} className="order-card__title">
          Order #{order.id}
        </h2>
        <Badge tone={STATUS_TONES[order.status] ?? 'neutral'}>{order.status_label}</Badge>
        {isPaid && order.minutes_waiting !== null ? (
          <span
            className={`order-card__waiting${order.minutes_waiting >= 10 ? ' order-card__waiting--late' : ''}`}
          >
            Waiting {waitingLabel(order.minutes_waiting)}
          </span>
        ) : null}
        <span className="order-card__total">{formatPrice(order.total)}</span>
      </div>

      <div className="order-card__buyer">
        {order.roblox_avatar_url ? (
          <img className="order-card__avatar" src={order.roblox_avatar_url} alt="" />
        ) : (
          <span className="order-card__avatar order-card__avatar--empty" aria-hidden="true">
            {(order.roblox_username ?? '?').charAt(0).toUpperCase()}
          </span>
        )}
        <dl className="order-card__facts">
          <div>
            <dt>Roblox</dt>
            <dd>{order.roblox_username ?? '—'}</dd>
          </div>
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

      <ul className="order-card__items" aria-label="Items">
        {order.items.map((item, index) => (
          <li key={`${item.name}-${index}`}>
            <span className="order-card__qty">{item.qty} ×</span> {item.name}
          </li>
        ))}
      </ul>

      {order.claimed_by ? (
        <p className="order-card__claim">
          {mine ? 'You are delivering this order.' : `Claimed by ${order.claimed_by.name}.`}
        </p>
      ) : null}

      {isPaid ? (
        <div className="order-card__actions">
          {mine ? (
            <Button
              variant="ghost"
              size="sm"
              disabled={action.isPending}
              onClick={() => perform({ kind: 'release', id: order.id })}
            >
              Release
            </Button>
          ) : (
            <Button
              variant="secondary"
              size="sm"
              disabled={action.isPending || claimedByOther}
              onClick={() => perform({ kind: 'claim', id: order.id })}
            >
              Claim
            </Button>
          )}
          <Button
            size="sm"
            disabled={action.isPending || claimedByOther}
            onClick={() => setDialog('deliver')}
          >
            Mark delivered
          </Button>
          <Button
            variant="danger"
            size="sm"
            disabled={action.isPending || claimedByOther}
            onClick={() => setDialog('refund')}
          >
            Refund
          </Button>
        </div>
      ) : refundable ? (
        <div className="order-card__actions">
          <Button
            variant="danger"
            size="sm"
            disabled={action.isPending}
            onClick={() => setDialog('refund')}
          >
            Refund
          </Button>
        </div>
      ) : null}
      {order.status === 'disputed' ? (
        <p className="order-card__claim" role="note">
          The buyer disputed this payment with their bank. Do not deliver it; it returns to the
          queue if the dispute is won.
        </p>
      ) : null}

      {dialog === 'deliver' ? (
        <DeliverModal
          order={order}
          pending={action.isPending}
          onClose={() => setDialog(null)}
          onConfirm={(proofId) => perform({ kind: 'deliver', id: order.id, proofId })}
        />
      ) : null}
      {dialog === 'refund' ? (
        <RefundModal
          order={order}
          pending={action.isPending}
          onClose={() => setDialog(null)}
          onConfirm={() => perform({ kind: 'refund', id: order.id })}
        />
      ) : null}
    </li>
  );
}

type OrdersQueueProps = {
  orders: AdminOrder[];
  /** Who is looking, to tell their own claims from others'. */
  currentUserId: number | null;
};

/** The delivery queue: one card per order with the buyer's details and the staff actions. */
export function OrdersQueue({ orders, currentUserId }: OrdersQueueProps) {
  return (
    <ul className="orders-queue" aria-label="Orders">
      {orders.map((order) => (
        <OrderCard key={order.id} order={order} currentUserId={currentUserId} />
      ))}
    </ul>
  );
}
