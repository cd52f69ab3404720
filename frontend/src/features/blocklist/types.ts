/** What a blocklist entry names. */
export type BlockKind = 'email' | 'discord_id' | 'roblox_username' | 'ip';

/** An entry of GET /api/admin/blocklist. */
export type BlockEntry = {
  id: number;
  kind: BlockKind;
  kind_label: string;
  /** Normalised by the server: e-mails and Roblox usernames lowercased, addresses parsed. */
  value: string;
  reason: string;
  /** null when the shop added it itself (a chargeback). */
  added_by: { id: number; name: string } | null;
  created_at: string;
};

export type Blocklist = { entries: BlockEntry[]; total: number };

export type NewBlock = { kind: BlockKind; value: string; reason: string };

export const BLOCK_KINDS: { value: BlockKind; label: string; placeholder: string }[] = [
  { value: 'email', label: 'E-mail', placeholder: 'buyer@example.com' },
  { value: 'discord_id', label: 'Discord id', placeholder: '100000000000000001' },
  { value: 'roblox_username', label: 'Roblox username', placeholder: 'Builder_Bob' },
  { value: 'ip', label: 'IP address', placeholder: '203.0.113.7' },
];
