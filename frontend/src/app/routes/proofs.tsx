import { useId, useState } from 'react';
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
  return (
    <div className="proofs-grid" aria-busy="true" aria-label="Loading proofs">
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
  const proofs = useProofs();
  return (
    <QueryBoundary
      query={proofs}
      loading={<ProofsSkeleton />}
      errorTitle="We couldn't load the proofs"
    >
      {(data) => <ProofGrid proofs={data} canManage={canManage} />}
    </QueryBoundary>
  );
}

function ProofGrid({ proofs, canManage }: { proofs: Proof[]; canManage: boolean }) {
  if (proofs.length === 0) {
    return (
      <StateMessage
        icon={<ShieldIcon size={28} />}
        title="No proofs yet"
        description={
          canManage
            ? 'Add the first proof of delivery with “Add New Proof”.'
            : 'Deliveries will show here as soon as our staff post them.'
        }
        action={
          canManage ? null : (
            <Link to={paths.home.getHref()} className={buttonClassName()}>
              Browse products
            </Link>
          )
        }
      />
    );
  }
  return (
    <ul className="proofs-grid" aria-label="Proofs of delivery">
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
  const { isStaff } = useUser();
  const [formOpen, setFormOpen] = useState(false);
  const formRegionId = useId();

  return (
    <div className="container proofs-page">
      <title>Proofs of Delivery · Garden Shop</title>
      <header className="proofs-page__header">
        <div>
          <h1 className="proofs-page__title">Proofs of Delivery</h1>
          <p className="proofs-page__intro">Real orders, delivered by hand in game by our staff.</p>
        </div>
        {isStaff ? (
          <Button
            variant={formOpen ? 'secondary' : 'primary'}
            startIcon={formOpen ? <CloseIcon size={18} /> : <PlusIcon size={18} />}
            aria-expanded={formOpen}
            aria-controls={formRegionId}
            onClick={() => setFormOpen((open) => !open)}
          >
            {formOpen ? 'Cancel' : 'Add New Proof'}
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
