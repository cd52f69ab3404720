import { useState } from 'react';

import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';

import { useDeletePromoCode } from '@/features/promo-codes/api/delete-promo-code';
import type { StaffPromoCode } from '@/features/promo-codes/api/get-promo-codes';
import { useSwitchPromoCode } from '@/features/promo-codes/api/update-promo-code';

import { PromoCodeModal } from './promo-code-modal';

import './promo-code-list.css';

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const dayFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });

function isExpired(code: StaffPromoCode, now: number): boolean {
  return !!code.expires_at && new Date(code.expires_at).getTime() <= now;
}

function usesText(code: StaffPromoCode): string {
  return code.max_uses == null
    ? `Used ${code.uses} · no limit`
    : `Used ${code.uses} of ${code.max_uses}`;
}

function stateBadge(code: StaffPromoCode, now: number) {
  if (!code.active) return <Badge tone="neutral">Inactive</Badge>;
  if (isExpired(code, now)) return <Badge tone="warning">Expired</Badge>;
  if (code.max_uses != null && code.uses >= code.max_uses)
    return <Badge tone="warning">Used up</Badge>;
  return <Badge tone="brand">Active</Badge>;
}

/** Uses so far and the limit, the expiry and the day it was made. */
function PromoMeta({ code, now }: { code: StaffPromoCode; now: number }) {
  return (
    <p className="promo-list__meta">
      <span>{usesText(code)}</span>
      <span>
        {code.expires_at ? (
          <>
            {isExpired(code, now) ? 'Expired ' : 'Expires '}
            <time dateTime={code.expires_at}>{dateFormat.format(new Date(code.expires_at))}</time>
          </>
        ) : (
          'Never expires'
        )}
      </span>
      <span>
        Created{' '}
        <time dateTime={code.created_at}>{dayFormat.format(new Date(code.created_at))}</time>
      </span>
    </p>
  );
}

/**
 * The codes, newest first: code, discount, state, uses so far and limit, expiry; Edit,
 * Deactivate (or Activate) and, for a code nobody used, Delete after a confirmation.
 */
export function PromoCodeList({ codes }: { codes: StaffPromoCode[] }) {
  const update = useSwitchPromoCode();
  const remove = useDeletePromoCode();
  const [editing, setEditing] = useState<StaffPromoCode | null>(null);
  const [deleting, setDeleting] = useState<StaffPromoCode | null>(null);
  const [now] = useState(() => Date.now());

  const setActive = (code: StaffPromoCode, active: boolean) => update.mutate({ code, active });

  const confirmDelete = () => {
    if (!deleting) return;
    remove.mutate(deleting, { onSettled: () => setDeleting(null) });
  };

  return (
    <>
      <ul className="promo-list" aria-label="Promo codes">
        {codes.map((code) => (
          <li key={code.id} className="promo-list__entry" aria-label={code.code}>
            <div className="promo-list__main">
              <span className="promo-list__code">{code.code}</span>
              <Badge tone="accent">{code.discount_percent}% off</Badge>
              {stateBadge(code, now)}
            </div>
            <PromoMeta code={code} now={now} />
            <div className="promo-list__actions">
              <Button
                variant="secondary"
                size="sm"
                aria-label={`Edit ${code.code}`}
                onClick={() => setEditing(code)}
              >
                Edit
              </Button>
              <Button
                variant="secondary"
                size="sm"
                aria-label={`${code.active ? 'Deactivate' : 'Activate'} ${code.code}`}
                disabled={update.isPending}
                onClick={() => setActive(code, !code.active)}
              >
                {code.active ? 'Deactivate' : 'Activate'}
              </Button>
              {code.uses === 0 ? (
                <Button
                  variant="ghost"
                  size="sm"
                  aria-label={`Delete ${code.code}`}
                  disabled={remove.isPending}
                  onClick={() => setDeleting(code)}
                >
                  Delete
                </Button>
              ) : null}
            </div>
          </li>
        ))}
      </ul>
      {editing ? (
        <PromoCodeModal key={editing.id} code={editing} onClose={() => setEditing(null)} />
      ) : null}
      <ConfirmDialog
        open={deleting !== null}
        title="Delete this promo code?"
        confirmLabel="Delete"
        busy={remove.isPending}
        onConfirm={confirmDelete}
        onCancel={() => setDeleting(null)}
      >
        {deleting ? `${deleting.code} will be gone for good. Shoppers can no longer use it.` : null}
      </ConfirmDialog>
    </>
  );
}
