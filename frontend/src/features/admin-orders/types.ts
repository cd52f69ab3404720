import type { Schemas } from '@/types/api';

/**
 * PENDING API TYPES (issue 21): the queue fields the backend is adding now, until `just api-types`
 * regenerates `QueuedOrder` with them. Then delete this type and its use in `AdminOrder` below.
 * Every field is always sent (null when it does not apply).
 */
type PendingQueuedOrderFields = {
  claimed_at: string | null;
  /** When the buyer pressed "I'm in the game" (cleared when the order is released). */
  buyer_ready_at: string | null;
  /** Whole minutes since the buyer said they are ready, while paid. */
  ready_minutes: number | null;
  /** Claimed, and the buyer was not ready within the shop's no-show time. */
  no_show: boolean;
  /** The order's Discord ticket, when one was opened. */
  ticket_url: string | null;
  /** Why there is no ticket, in a sentence ("Ticket not opened: …"). */
  ticket_problem: string | null;
};

/**
 * An order in the staff delivery queue, as GET /api/admin/orders sends it; `claimed_by` is the
 * member of staff working on it, if any. The "paid" filter lists buyer-ready orders first.
 */
export type AdminOrder = Schemas['QueuedOrder'] & PendingQueuedOrderFields;

export type OrdersFilter = Schemas['QueueFilter'];

/**
 * PENDING API TYPES (issue 21): GET/PUT /api/admin/private-server's body, until it is generated.
 * The signed-in member of staff's private game server link; null while none is set.
 */
export type PrivateServer = { url: string | null };
