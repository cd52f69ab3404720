/** An order in the staff delivery queue, as GET /api/admin/orders sends it. */
export type AdminOrder = {
  id: number;
  status: 'paid' | 'delivered' | 'refunded' | 'disputed' | string;
  status_label: string;
  items: { name: string; qty: number }[];
  total: number;
  roblox_username: string | null;
  roblox_avatar_url: string | null;
  discord_username: string | null;
  discord_id: string | null;
  email: string | null;
  created_at: string;
  paid_at: string | null;
  minutes_waiting: number | null;
  /** The member of staff working on it, if any. */
  claimed_by: { id: number; name: string } | null;
  proof_id: number | null;
};

export type OrdersFilter = 'paid' | 'delivered' | 'all';
