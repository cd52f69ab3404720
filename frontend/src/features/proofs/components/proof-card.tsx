import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { CheckCircleIcon, TrashIcon } from '@/components/ui/icons';

import { useDeleteProof } from '@/features/proofs/api/delete-proof';
import type { Proof } from '@/features/proofs/types';
import { proofGridColumns } from '@/features/proofs/utils/normalize-proof';
import { currentLanguage } from '@/lib/i18n/format';

type ProofCardProps = {
  proof: Proof;
  /** Staff see Delete. */
  canManage: boolean;
};

function formatDate(iso: string | undefined): string | null {
  if (!iso) return null;
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return null;
  return new Intl.DateTimeFormat(currentLanguage(), { dateStyle: 'medium' }).format(date);
}

/** The proof's screenshots in 1, 2 or 3 columns, each opening in a new tab. */
function ProofImages({ proof }: { proof: Proof }) {
  const { t } = useTranslation('pages');
  const columns = proofGridColumns(proof.images.length);
  return (
    <figure className="proof-card__figure">
      {proof.images.length > 0 ? (
        <ul
          className={`proof-card__images proof-card__images--cols-${columns}`}
          data-columns={columns}
          aria-label={t('proofs.images')}
        >
          {proof.images.map((src, index) => (
            <li key={`${src}-${index}`}>
              <a href={src} target="_blank" rel="noopener noreferrer">
                <img
                  src={src}
                  alt={t('proofs.imageAlt', {
                    index: index + 1,
                    total: proof.images.length,
                    items: proof.items,
                  })}
                  loading="lazy"
                  decoding="async"
                />
                <span className="visually-hidden">
                  {' '}
                  {t('common.opensInNewTab', { ns: 'translation' })}
                </span>
              </a>
            </li>
          ))}
        </ul>
      ) : null}
      <figcaption className="proof-card__caption">{t('proofs.caption')}</figcaption>
    </figure>
  );
}

/** 'Completed Order', 'Enjoy your {items}', the images in 1, 2 or 3 columns, 'Proof of Delivery'. */
export function ProofCard({ proof, canManage }: ProofCardProps) {
  const { t } = useTranslation('pages');
  const remove = useDeleteProof();
  const [confirming, setConfirming] = useState(false);
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
            {t('proofs.completed')}
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
            aria-label={t('proofs.deleteLabel', { items: proof.items })}
          >
            {t('proofs.delete')}
          </Button>
        ) : null}
      </header>
      <p className="proof-card__items">{t('proofs.enjoy', { items: proof.items })}</p>
      <ProofImages proof={proof} />
      <ConfirmDialog
        open={confirming}
        title={t('proofs.deleteTitle')}
        confirmLabel={t('proofs.delete')}
        busy={remove.isPending}
        onCancel={() => setConfirming(false)}
        onConfirm={() =>
          remove.mutate(proof.id, {
            onSettled: () => setConfirming(false),
          })
        }
      >
        {t('proofs.deleteConfirm')}
      </ConfirmDialog>
    </article>
  );
}
