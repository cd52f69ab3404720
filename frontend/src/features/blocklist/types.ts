import type { Schemas } from '@/types/api';

/** What a blocklist entry names. */
export type BlockKind = Schemas['BlockKind'];

/**
 * An entry of GET /api/admin/blocklist. `value` is normalised by the server (e-mails and Roblox
 * usernames lowercased, addresses parsed); `canonical` is the inbox an e-mail entry matches (no
 * `+tag`, no dots at Gmail); `status` is `flagged` for what a chargeback's buyer typed (it blocks
 * nothing until confirmed); `expires_at` ends a chargeback's address block; `added_by` is null
 * when the shop added it itself (a chargeback).
 */
export type BlockEntry = Schemas['BlocklistEntry'];

export type Blocklist = Schemas['BlocklistPage'];

export type NewBlock = Schemas['NewBlocklistEntry'];

export const BLOCK_KINDS: { value: BlockKind; label: string; placeholder: string }[] = [
  { value: 'email', label: 'E-mail', placeholder: 'buyer@example.com' },
  { value: 'discord_id', label: 'Discord id', placeholder: '100000000000000001' },
  { value: 'roblox_username', label: 'Roblox username', placeholder: 'Builder_Bob' },
  { value: 'ip', label: 'IP address', placeholder: '203.0.113.7' },
];
