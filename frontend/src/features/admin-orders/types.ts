import type { Schemas } from '@/types/api';

/**
 * An order in the staff delivery queue, as GET /api/admin/orders sends it; `claimed_by` is the
 * member of staff working on it, if any. The "paid" filter lists buyer-ready orders first.
 */
export type AdminOrder = Schemas['QueuedOrder'];

export type OrdersFilter = Schemas['QueueFilter'];

/** The signed-in member of staff's private game server link; null while none is set. */
export type PrivateServer = Schemas['PrivateServer'];

/** PUT /api/admin/private-server's body: an https roblox.com link of at most 300 characters. */
export type PrivateServerRequest = Schemas['PrivateServerRequest'];
