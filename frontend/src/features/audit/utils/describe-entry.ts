import type { AuditEntry } from '@/features/audit/types';

/** What each kind of entry is called on the page. */
const KIND_LABELS: Record<string, string> = {
  'product.create': 'Product created',
  'product.update': 'Product edited',
  'product.delete': 'Product deleted',
  'product.reorder': 'Products reordered',
  'stock.set': 'Stock set',
  'stock.change': 'Stock changed',
  'promo.create': 'Promo code created',
  'promo.update': 'Promo code changed',
  'promo.delete': 'Promo code deleted',
  'order.claim': 'Order claimed',
  'order.release': 'Order released',
  'order.deliver': 'Order delivered',
  'staff.private_server': 'Private server link changed',
  'order.refund': 'Order refunded',
  'order.hold_release': 'Held order released to the queue',
  'order.message': 'Message to a buyer',
  'dispute.submit': 'Dispute evidence submitted',
  'dispute.accept': 'Dispute accepted',
  'proof.create': 'Proof added',
  'proof.delete': 'Proof deleted',
  'chat.delete': 'Chat deleted',
  'blocklist.add': 'Blocked',
  'blocklist.remove': 'Unblocked',
  'blocklist.confirm': 'Confirmed block',
  'review.hide': 'Review hidden',
  'user.create': 'Account created',
  'user.role': 'Role changed',
  'user.name': 'Name changed',
  'user.password': 'Password changed',
};

export function kindLabel(kind: string): string {
  return KIND_LABELS[kind] ?? kind;
}

/** One value that changed: `before` is absent on a creation, `after` on a deletion. */
export type AuditChange = {
  field: string;
  before?: string;
  after?: string;
};

type Values = Record<string, unknown>;

function asObject(value: unknown): Values | null {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Values)
    : null;
}

/** A value as a person reads it. */
export function formatValue(value: unknown): string {
  if (value === null || value === undefined) return 'none';
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (Array.isArray(value)) return value.length ? value.map(formatValue).join(', ') : 'none';
  if (typeof value === 'object') return JSON.stringify(value);
  const text = String(value);
  return text === '' ? '(empty)' : text;
}

/** "sort_order" -> "Sort order"; keys that are names already ("Owl (#12)") stay as they are. */
export function fieldLabel(key: string): string {
  if (!/^[a-z][a-z0-9_]*$/.test(key)) return key;
  const words = key.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The values an entry changed, before -> after. A creation lists what it wrote, a deletion what
 * it took away; an edit only the values that differ (the name is shown as the entry's subject).
 */
export function describeChanges(entry: { before?: unknown; after?: unknown }): AuditChange[] {
  const before = asObject(entry.before);
  const after = asObject(entry.after);
  if (!before && !after) {
    if (entry.before === null && entry.after === null) return [];
    return [{ field: 'Value', before: formatValue(entry.before), after: formatValue(entry.after) }];
  }
  if (!before && after) {
    return Object.entries(after).map(([key, value]) => ({
      field: fieldLabel(key),
      after: formatValue(value),
    }));
  }
  if (before && !after) {
    return Object.entries(before).map(([key, value]) => ({
      field: fieldLabel(key),
      before: formatValue(value),
    }));
  }
  const keys = [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])];
  return keys
    .filter((key) => !same(before?.[key], after?.[key]))
    .map((key) => ({
      field: fieldLabel(key),
      before: key in (before ?? {}) ? formatValue(before?.[key]) : undefined,
      after: key in (after ?? {}) ? formatValue(after?.[key]) : undefined,
    }));
}

/** A short name for what the entry is about: the product's or account's name, the code... */
export function entrySubject(entry: Pick<AuditEntry, 'before' | 'after'>): string | null {
  for (const values of [asObject(entry.after), asObject(entry.before)]) {
    if (!values) continue;
    for (const key of ['name', 'code', 'value', 'email']) {
      const value = values[key];
      if (typeof value === 'string' && value) return value;
    }
  }
  return null;
}
