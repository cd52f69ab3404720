import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { Button, buttonClassName } from '@/components/ui/button';
import { CloseIcon, PlusIcon, ShieldIcon } from '@/components/ui/icons';
import { QueryBoundary } from '@/components/ui/query-boundary';
import { Skeleton } from '@/components/ui/skeleton';
import { StateMessage } from '@/components/ui/state-message';
import { paths } from '@/config/paths';
import { useUser } from '@/features/auth/hooks/use-user';
import { useProofs } from '@/features/proofs/api/get-proofs';
import { ProofCard } from '@/features/proofs/components/proof-card';
import { ProofForm } from '@/features/proofs/components/proof-form';
import type { Proof } from '@/features/proofs/types';

import './proofs.css';

function ProofsSkeleton() {
  const { t } = useTranslation('pages');
  return (
    <div className="proofs-grid" aria-busy="true" aria-label={t('proofs.loading')}>
      {[0, 1, 2, 3].map((key) => (
        <div key={key} className="proof-card">
          <Skeleton width="14ch" height="1.5em" />
          <Skeleton width="24ch" />
          <Skeleton height={180} radius="var(--radius-lg)" />
        </div>
      ))}
    </div>
  );
}

function ProofList({ canManage }: { canManage: boolean }) {
  const { t } = useTranslation('pages');
  const proofs = useProofs();
  return (
    <QueryBoundary query={proofs} loading={<ProofsSkeleton />} errorTitle={t('proofs.failed')}>
      {(data) => <ProofGrid proofs={data} canManage={canManage} />}
    </QueryBoundary>
  );
}

function ProofGrid({ proofs, canManage }: { proofs: Proof[]; canManage: boolean }) {
  const { t } = useTranslation('pages');
  if (proofs.length === 0) {
    return (
      <StateMessage
        icon={<ShieldIcon size={28} />}
        title={t('proofs.none')}
        description={canManage ? t('proofs.noneStaff') : t('proofs.noneDetail')}
        action={
          canManage ? null : (
            <Link to={paths.home.getHref()} className={buttonClassName()}>
              {t('profile.browse')}
            </Link>
          )
        }
      />
    );
  }
  return (
    <ul className="proofs-grid" aria-label={t('proofs.list')}>
      {proofs.map((proof) => (
        <li key={proof.id}>
          <ProofCard proof={proof} canManage={canManage} />
        </li>
      ))}
    </ul>
  );
}

/** /proofs: delivered orders with their screenshots; staff add and delete them. */
export function ProofsRoute() {
  const { t } = useTranslation('pages');
  const { isStaff } = useUser();
  const [formOpen, setFormOpen] = useState(false);
  const formRegionId = useId();

  return (
    <div className="container proofs-page">
      <title>{t('common.pageTitle', { ns: 'translation', title: t('proofs.title') })}</title>
      <header className="proofs-page__header">
        <div>
          <h1 className="proofs-page__title">{t('proofs.title')}</h1>
          <p className="proofs-page__intro">{t('proofs.intro')}</p>
        </div>
        {isStaff ? (
          <Button
            variant={formOpen ? 'secondary' : 'primary'}
            startIcon={formOpen ? <CloseIcon size={18} /> : <PlusIcon size={18} />}
            aria-expanded={formOpen}
            aria-controls={formRegionId}
            onClick={() => setFormOpen((open) => !open)}
          >
            {formOpen ? t('common.cancel', { ns: 'translation' }) : t('proofs.add')}
          </Button>
        ) : null}
      </header>
      {isStaff ? (
        <div id={formRegionId}>
          {formOpen ? <ProofForm onAdded={() => setFormOpen(false)} /> : null}
        </div>
      ) : null}
      <ProofList canManage={isStaff} />
    </div>
  );
}
