import { useMutation, useQueryClient } from '@tanstack/react-query';

import { toast } from '@/components/ui/toast';
import { ApiError, api, errorMessage } from '@/lib/api-client';

import { adminOrdersQueryKey, putOrderInCache } from '@/features/admin-orders/api/get-admin-orders';
import { privateServerQueryKey } from '@/features/admin-orders/api/get-private-server';
import type { AdminOrder } from '@/features/admin-orders/types';

/**
 * POST /api/admin/orders/{id}/claim: 409 "Already claimed by Ann." when someone was faster, and
 * 409 "Set your private server link first: …" while the member of staff has none.
 */
export function claimOrder(id: number): Promise<AdminOrder> {
  return api.post('/admin/orders/{id}/claim', { params: { path: { id } } });
}

/**
 * POST /api/admin/orders/{id}/release {reason}: only the one who claimed it; the buyer is shown the
 * reason and mailed it. 422 without one (or over 200 characters).
 */
export function releaseOrder(id: number, reason: string): Promise<AdminOrder> {
  return api.post('/admin/orders/{id}/release', { params: { path: { id } }, body: { reason } });
}

/**
 * POST /api/admin/orders/{id}/deliver, optionally naming the proof of delivery; 409 "Claim this
 * order first." when nobody claimed it.
 */
export function deliverOrder({
  id,
  proofId,
}: {
  id: number;
  proofId: number | null;
}): Promise<AdminOrder> {
  return api.post('/admin/orders/{id}/deliver', {
    params: { path: { id } },
    body: { proof_id: proofId },
  });
}

/**
 * POST /api/admin/orders/{id}/refund: refunds the whole payment through the provider, then the
 * order is refunded (its stock stays sold); 502 when the provider refused, nothing changed.
 */
export function refundOrder(id: number): Promise<AdminOrder> {
  return api.post('/admin/orders/{id}/refund', { params: { path: { id } } });
}

/**
 * POST /api/admin/orders/{id}/hold/release (super_admin): an order on a risk hold (a fraud warning,
 * a risky payment) back in the queue; 409 when it is not on hold any more.
 */
export function releaseHold(id: number): Promise<AdminOrder> {
  return api.post('/admin/orders/{id}/hold/release', { params: { path: { id } } });
}

export type OrderAction =
  | { kind: 'claim'; id: number }
  | { kind: 'release'; id: number; reason: string }
  | { kind: 'deliver'; id: number; proofId: number | null }
  | { kind: 'refund'; id: number }
  | { kind: 'release-hold'; id: number };

function run(action: OrderAction): Promise<AdminOrder> {
  switch (action.kind) {
    case 'claim':
      return claimOrder(action.id);
    case 'release':
      return releaseOrder(action.id, action.reason);
    case 'deliver':
      return deliverOrder({ id: action.id, proofId: action.proofId });
    case 'refund':
      return refundOrder(action.id);
    case 'release-hold':
      return releaseHold(action.id);
  }
}

const SUCCESS: Record<OrderAction['kind'], (id: number) => string> = {
  claim: (id) => `You are delivering order #${id}.`,
  release: (id) => `Order #${id} is back in the queue.`,
  deliver: (id) => `Order #${id} marked delivered.`,
  refund: (id) => `Order #${id} refunded.`,
  'release-hold': (id) => `Order #${id} is released to the queue.`,
};

/**
 * A claim refused because the member of staff has no private server link. The 409 carries no code
 * of its own, only its sentence ("Set your private server link first: …"), which is what tells it
 * from the other 409 of a claim ("Already claimed by Ann.").
 */
export function needsPrivateServerLink(action: OrderAction, error: unknown): error is ApiError {
  return (
    action.kind === 'claim' &&
    error instanceof ApiError &&
    error.status === 409 &&
    /private server link/i.test(error.message)
  );
}

type OrderActionOptions = {
  /** A claim was refused for want of a private server link; the message says so. */
  onNeedsPrivateServer?: (message: string) => void;
};

/**
 * Every queue action through one mutation; the answered order replaces the cached one. The toast
 * is said here, on the mutation, not by the card that asked: the live stream can take a refunded
 * or delivered order off the waiting list (unmounting its card) before the answer arrives, and a
 * card's own `mutate` callbacks never run once it is gone.
 */
export function useOrderAction({ onNeedsPrivateServer }: OrderActionOptions = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSuccess: (order, action) => {
      putOrderInCache(queryClient, order);
      toast.success(SUCCESS[action.kind](action.id));
    },
    onError: (error, action) => {
      console.error(`The ${action.kind} of order ${action.id} failed.`, error);
      toast.error(errorMessage(error));
      if (needsPrivateServerLink(action, error)) {
        // The cached link may be stale (removed in another tab): ask again.
        void queryClient.invalidateQueries({ queryKey: privateServerQueryKey });
        onNeedsPrivateServer?.(error.message);
      }
      void queryClient.invalidateQueries({ queryKey: adminOrdersQueryKey });
    },
  });
}
