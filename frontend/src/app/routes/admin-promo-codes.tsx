import { AdminPageHeader, BackToProducts } from '@/app/routes/admin-page-header';
import { useState } from 'react';

import { Button } from '@/components/ui/button';
import { CardIcon } from '@/components/ui/icons';
import { QueryBoundary } from '@/components/ui/query-boundary';
import { SkeletonList } from '@/components/ui/skeleton';
import { StateMessage } from '@/components/ui/state-message';
import { usePromoCodes } from '@/features/promo-codes/api/get-promo-codes';
import { PromoCodeList } from '@/features/promo-codes/components/promo-code-list';
import { PromoCodeModal } from '@/features/promo-codes/components/promo-code-modal';

import { RequireRole } from './admin-access';
import './admin-page.css';

function PromoCodes() {
  const codes = usePromoCodes();
  const [adding, setAdding] = useState(false);

  const content = (
    <QueryBoundary
      query={codes}
      loading={
        <SkeletonList
          className="admin-page__loading"
          label="Loading promo codes"
          height={72}
          count={2}
        />
      }
      errorTitle="We couldn't load the promo codes"
    >
      {(data) =>
        data.length === 0 ? (
          <StateMessage
            role="status"
            icon={<CardIcon size={28} />}
            title="No promo codes yet"
            description="Codes you add show up here, with how often they were used."
            action={<Button onClick={() => setAdding(true)}>Add Promo Code</Button>}
          />
        ) : (
          <PromoCodeList codes={data} />
        )
      }
    </QueryBoundary>
  );

  return (
    <div className="container admin-page">
      <AdminPageHeader
        title="Promo codes"
        intro="Each Discord account can use a code once. A switched-off code is refused at checkout and stays on the orders that used it; a code nobody used can be deleted."
        tools={
          <nav className="admin-page__toolbar" aria-label="Promo code tools">
            <BackToProducts />
            <Button onClick={() => setAdding(true)}>Add Promo Code</Button>
          </nav>
        }
      />
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
