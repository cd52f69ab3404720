import type { Schemas } from '@/types/api';

/**
 * An order in the staff delivery queue, as GET /api/admin/orders sends it; `claimed_by` is the
 * member of staff working on it, if any.
 */
export type AdminOrder = Schemas['QueuedOrder'];

export type OrdersFilter = Schemas['QueueFilter'];
