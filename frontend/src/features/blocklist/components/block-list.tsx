import { useState } from 'react';

import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';

import { useConfirmBlock, useRemoveBlock } from '@/features/blocklist/api/blocklist';
import type { BlockEntry } from '@/features/blocklist/types';

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** Who added the entry and when, what else it matches, until when it blocks. */
function BlockMeta({ entry }: { entry: BlockEntry }) {
  return (
    <p className="block-list__meta">
      Added by {entry.added_by ? entry.added_by.name : 'the shop'} on{' '}
      <time dateTime={entry.created_at}>{dateFormat.format(new Date(entry.created_at))}</time>
      {entry.canonical && entry.canonical !== entry.value
        ? ` · matches every spelling of ${entry.canonical}`
        : null}
      {entry.kind === 'ip' && entry.value.includes(':') ? ' · covers its /64 network' : null}
      {entry.expires_at ? (
        <>
          {' · blocks until '}
          <time dateTime={entry.expires_at}>{dateFormat.format(new Date(entry.expires_at))}</time>
        </>
      ) : null}
    </p>
  );
}

/**
 * The entries, newest first, each with who added it, when, what it matches and until when, and a
 * Remove button; a flagged entry (what a chargeback's buyer typed, which could be a stranger's)
 * blocks nothing until staff confirm it.
 */
export function BlockList({ entries }: { entries: BlockEntry[] }) {
  const remove = useRemoveBlock();
  const confirmBlock = useConfirmBlock();
  const [asking, setAsking] = useState<BlockEntry | null>(null);

  const confirmFlagged = (entry: BlockEntry) => confirmBlock.mutate(entry);

  const confirm = () => {
    if (!asking) return;
    remove.mutate(asking, { onSettled: () => setAsking(null) });
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
              <Badge tone={entry.status === 'flagged' ? 'warning' : 'danger'}>
                {entry.kind_label}
              </Badge>
              <span className="block-list__value">{entry.value}</span>
              {entry.status === 'flagged' ? (
                <Badge tone="neutral">Flagged: not blocking</Badge>
              ) : null}
            </div>
            <p className="block-list__reason">{entry.reason}</p>
            <BlockMeta entry={entry} />
            <div className="block-list__actions">
              {entry.status === 'flagged' ? (
                <Button
                  variant="secondary"
                  size="sm"
                  aria-label={`Confirm block ${entry.kind_label} ${entry.value}`}
                  disabled={confirmBlock.isPending}
                  onClick={() => confirmFlagged(entry)}
                >
                  Confirm block
                </Button>
              ) : null}
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
