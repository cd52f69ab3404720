import { useState } from 'react';

import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { toast } from '@/components/ui/toast';
import { errorMessage } from '@/lib/api-client';

import { useRemoveBlock } from '@/features/blocklist/api/blocklist';
import type { BlockEntry } from '@/features/blocklist/types';

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** The entries, newest first, each with who added it, when, and a Remove button. */
export function BlockList({ entries }: { entries: BlockEntry[] }) {
  const remove = useRemoveBlock();
  const [asking, setAsking] = useState<BlockEntry | null>(null);

  const confirm = () => {
    if (!asking) return;
    const entry = asking;
    remove.mutate(entry.id, {
      onSuccess: () => {
        toast.success(`${entry.kind_label} ${entry.value} is no longer blocked.`);
        setAsking(null);
      },
      onError: (error) => {
        console.error('Removing a blocklist entry failed.', error);
        toast.error(errorMessage(error));
        setAsking(null);
      },
    });
  };

  return (
    <>
      <ul className="block-list" aria-label="Blocked">
        {entries.map((entry) => (
          <li
            key={entry.id}
            className="block-list__entry"
            aria-label={`${entry.kind_label} ${entry.value}`}
          >
            <div className="block-list__main">
              <Badge tone="danger">{entry.kind_label}</Badge>
              <span className="block-list__value">{entry.value}</span>
            </div>
            <p className="block-list__reason">{entry.reason}</p>
            <p className="block-list__meta">
              Added by {entry.added_by ? entry.added_by.name : 'the shop'} on{' '}
              <time dateTime={entry.created_at}>
                {dateFormat.format(new Date(entry.created_at))}
              </time>
            </p>
            <div className="block-list__actions">
              <Button
                variant="ghost"
                size="sm"
                aria-label={`Remove ${entry.kind_label} ${entry.value}`}
                disabled={remove.isPending}
                onClick={() => setAsking(entry)}
              >
                Remove
              </Button>
            </div>
          </li>
        ))}
      </ul>
      <ConfirmDialog
        open={asking !== null}
        title="Remove this entry?"
        confirmLabel="Remove"
        busy={remove.isPending}
        onConfirm={confirm}
        onCancel={() => setAsking(null)}
      >
        {asking ? `${asking.kind_label} ${asking.value} can check out again.` : null}
      </ConfirmDialog>
    </>
  );
}
