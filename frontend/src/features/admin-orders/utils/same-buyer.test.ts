import { describe, expect, it } from 'vitest';

import type { AdminOrder } from '@/features/admin-orders/types';

import { sameBuyerOrders } from './same-buyer';

function order(
  id: number,
  buyer: { discord: string | null; roblox: string | null },
  status = 'paid',
): AdminOrder {
  return {
    id,
    status,
    discord_id: buyer.discord,
    roblox_username: buyer.roblox,
  } as AdminOrder;
}

describe('orders of the same buyer', () => {
  it('links paid orders by Discord account or by Roblox name, whatever its case', () => {
    const links = sameBuyerOrders([
      order(1, { discord: '100', roblox: 'KidOne' }),
      order(2, { discord: '200', roblox: 'Someone' }),
      order(3, { discord: '100', roblox: 'OtherName' }),
      order(4, { discord: '300', roblox: 'someone' }),
      order(5, { discord: '400', roblox: 'Alone' }),
    ]);
    expect(links.get(1)).toEqual([3]);
    expect(links.get(3)).toEqual([1]);
    expect(links.get(2)).toEqual([4]);
    expect(links.get(4)).toEqual([2]);
    expect(links.has(5)).toBe(false);
  });

  it('joins through a shared order: same Discord on one side, same Roblox name on the other', () => {
    const links = sameBuyerOrders([
      order(1, { discord: '100', roblox: 'Alpha' }),
      order(2, { discord: '100', roblox: 'Beta' }),
      order(3, { discord: null, roblox: 'BETA' }),
    ]);
    expect(links.get(1)).toEqual([2, 3]);
    expect(links.get(3)).toEqual([1, 2]);
  });

  it('leaves out orders that are no longer to deliver, and buyers known by nothing', () => {
    const links = sameBuyerOrders([
      order(1, { discord: '100', roblox: 'Alpha' }),
      order(2, { discord: '100', roblox: 'Alpha' }, 'delivered'),
      order(3, { discord: null, roblox: null }),
      order(4, { discord: null, roblox: null }),
    ]);
    expect(links.size).toBe(0);
  });
});
