import type { AdminOrder } from '@/features/admin-orders/types';

/** The queue at a glance, from the paid orders' list. */
export type QueueSummary = {
  /** Paid, nobody delivering them yet. */
  waiting: number;
  /** Claimed by a member of staff. */
  claimed: number;
  /** Whose buyer said "I'm in the game". */
  ready: number;
  /** The longest wait among the unclaimed ones, in minutes; null when none waits. */
  oldestWaitMinutes: number | null;
  /** Some unclaimed order waits longer than the shop promises (its buyer is told so). */
  late: boolean;
};

/** Counts the paid orders in the queue (those on a risk hold are out of it). */
export function summarizeQueue(orders: readonly AdminOrder[]): QueueSummary {
  const queued = orders.filter((order) => order.status === 'paid' && order.hold === null);
  const unclaimed = queued.filter((order) => order.claimed_by === null);
  const waits = unclaimed
    .map((order) => order.minutes_waiting)
    .filter((minutes): minutes is number => minutes !== null);
  return {
    waiting: unclaimed.length,
    claimed: queued.length - unclaimed.length,
    ready: queued.filter((order) => order.buyer_ready_at !== null).length,
    oldestWaitMinutes: waits.length > 0 ? Math.max(...waits) : null,
    late: unclaimed.some((order) => order.over_promise),
  };
}
