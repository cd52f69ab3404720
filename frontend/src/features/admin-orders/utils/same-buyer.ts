import type { AdminOrder } from '@/features/admin-orders/types';

/**
 * For each paid order of the list, the other paid orders of the same buyer in it, in the list's
 * order: the same Discord account, or the same Roblox name (Roblox ignores case), directly or
 * through another of their orders. Staff deliver them in one visit. Orders of a buyer with a
 * single paid order are left out.
 */
export function sameBuyerOrders(orders: readonly AdminOrder[]): Map<number, number[]> {
  const paid = orders.filter((order) => order.status === 'paid');
  // union-find over the orders, joined by each key they share
  const parent = new Map<number, number>(paid.map((order) => [order.id, order.id]));
  const root = (id: number): number => {
    let at = id;
    while (parent.get(at) !== at) at = parent.get(at) ?? at;
    return at;
  };
  const firstWithKey = new Map<string, number>();
  for (const order of paid) {
    const keys = [
      order.discord_id ? `discord:${order.discord_id}` : null,
      order.roblox_username ? `roblox:${order.roblox_username.toLowerCase()}` : null,
    ];
    for (const key of keys) {
      if (key === null) continue;
      const other = firstWithKey.get(key);
      if (other === undefined) firstWithKey.set(key, order.id);
      else parent.set(root(order.id), root(other));
    }
  }
  const groups = new Map<number, number[]>();
  for (const order of paid) {
    const group = groups.get(root(order.id)) ?? [];
    group.push(order.id);
    groups.set(root(order.id), group);
  }
  const others = new Map<number, number[]>();
  for (const group of groups.values()) {
    if (group.length < 2) continue;
    for (const id of group)
      others.set(
        id,
        group.filter((other) => other !== id),
      );
  }
  return others;
}
