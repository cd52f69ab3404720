import { useState } from 'react';

import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { CheckCircleIcon, TrashIcon } from '@/components/ui/icons';

import { useDeleteProof } from '@/features/proofs/api/delete-proof';
import type { Proof } from '@/features/proofs/types';
import { proofGridColumns } from '@/features/proofs/utils/normalize-proof';

type ProofCardProps = {
  proof: Proof;
  /** Staff see Delete. */
  canManage: boolean;
};

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });

function formatDate(iso: string | undefined): string | null {
  if (!iso) return null;
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? null : dateFormat.format(date);
}

/** 'Completed Order', 'Enjoy your {items}', the images in 1, 2 or 3 columns, 'Proof of Delivery'. */
export function ProofCard({ proof, canManage }: ProofCardProps) {
  const remove = useDeleteProof();
  const [confirming, setConfirming] = useState(false);
  const columns = proofGridColumns(proof.images.length);
  const date = formatDate(proof.created_at);
  const titleId = `proof-${proof.id}-title`;

  return (
    <article className="proof-card" aria-labelledby={titleId}>
      <header className="proof-card__header">
        <span className="proof-card__icon" aria-hidden="true">
          <CheckCircleIcon size={22} />
        </span>
        <div className="proof-card__heading">
          <h2 id={titleId} className="proof-card__title">
            Completed Order
          </h2>
          {date && proof.created_at ? (
            <time className="proof-card__date" dateTime={proof.created_at}>
              {date}
            </time>
          ) : null}
        </div>
        {canManage ? (
          <Button
            size="sm"
            variant="danger"
            startIcon={<TrashIcon size={16} />}
            onClick={() => setConfirming(true)}
            aria-label={`Delete proof: ${proof.items}`}
          >
            Delete
          </Button>
        ) : null}
      </header>
      <p className="proof-card__items">Enjoy your {proof.items}</p>
      <figure className="proof-card__figure">
        {proof.images.length > 0 ? (
          <ul
            className={`proof-card__images proof-card__images--cols-${columns}`}
            data-columns={columns}
            aria-label="Proof images"
          >
            {proof.images.map((src, index) => (
              <li key={`${src}-${index}`}>
                <a href={src} target="_blank" rel="noopener noreferrer">
                  <img
                    src={src}
                    alt={`Proof of delivery ${index + 1} of ${proof.images.length}: ${proof.items}`}
                    loading="lazy"
                    decoding="async"
                  />
                  <span className="visually-hidden"> (opens in a new tab)</span>
                </a>
              </li>
            ))}
          </ul>
        ) : null}
        <figcaption className="proof-card__caption">Proof of Delivery</figcaption>
      </figure>
      <ConfirmDialog
        open={confirming}
        title="Delete proof"
        confirmLabel="Delete"
        busy={remove.isPending}
        onCancel={() => setConfirming(false)}
        onConfirm={() =>
          remove.mutate(proof.id, {
            onSettled: () => setConfirming(false),
          })
        }
      >
        Are you sure you want to delete this proof?
      </ConfirmDialog>
    </article>
  );
}
