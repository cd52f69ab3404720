import { useState } from 'react';
import { Link } from 'react-router';

import { Button, buttonClassName } from '@/components/ui/button';
import { AlertIcon, ArrowLeftIcon, CardIcon } from '@/components/ui/icons';
import { Skeleton } from '@/components/ui/skeleton';
import { StateMessage } from '@/components/ui/state-message';
import { paths } from '@/config/paths';
import { usePromoCodes } from '@/features/promo-codes/api/get-promo-codes';
import { PromoCodeList } from '@/features/promo-codes/components/promo-code-list';
import { PromoCodeModal } from '@/features/promo-codes/components/promo-code-modal';
import { errorMessage } from '@/lib/api-client';

import { RequireRole } from './admin-access';
import './admin-page.css';

function PromoCodes() {
  const codes = usePromoCodes();
  const [adding, setAdding] = useState(false);

  let content;
  if (codes.isPending) {
    content = (
      <div className="admin-page__loading" aria-busy="true" aria-label="Loading promo codes">
        <Skeleton height={72} radius="var(--radius-lg)" />
        <Skeleton height={72} radius="var(--radius-lg)" />
      </div>
    );
  } else if (codes.isError) {
    content = (
      <StateMessage
        tone="danger"
        role="alert"
        icon={<AlertIcon size={28} />}
        title="We couldn't load the promo codes"
        description={errorMessage(codes.error)}
        action={
          <Button onClick={() => void codes.refetch()} loading={codes.isFetching}>
            Retry
          </Button>
        }
      />
    );
  } else if (codes.data.length === 0) {
    content = (
      <StateMessage
        role="status"
        icon={<CardIcon size={28} />}
        title="No promo codes yet"
        description="Codes you add show up here, with how often they were used."
        action={<Button onClick={() => setAdding(true)}>Add Promo Code</Button>}
      />
    );
  } else {
    content = <PromoCodeList codes={codes.data} />;
  }

  return (
    <div className="container admin-page">
      <header className="admin-page__header">
        <div>
          <h1 className="admin-page__title">Promo codes</h1>
          <p className="admin-page__intro">
            Each Discord account can use a code once. A switched-off code is refused at checkout and
            stays on the orders that used it; a code nobody used can be deleted.
          </p>
        </div>
        <nav className="admin-page__toolbar" aria-label="Promo code tools">
          <Link
            to={paths.adminProducts.getHref()}
            className={buttonClassName({ variant: 'secondary' })}
          >
            <ArrowLeftIcon size={18} />
            Products
          </Link>
          <Button onClick={() => setAdding(true)}>Add Promo Code</Button>
        </nav>
      </header>
      {content}
      <PromoCodeModal open={adding} onClose={() => setAdding(false)} />
    </div>
  );
}

export function AdminPromoCodesRoute() {
  return (
    <>
      <title>Promo codes · Admin · Garden Shop</title>
      <RequireRole role="super_admin">
        <PromoCodes />
      </RequireRole>
    </>
  );
}
