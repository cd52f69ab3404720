import { AdminPageHeader } from '@/app/routes/admin-page-header';

import { CheckCircleIcon } from '@/components/ui/icons';
import { QueryBoundary } from '@/components/ui/query-boundary';
import { Skeleton, SkeletonList } from '@/components/ui/skeleton';
import { StateMessage } from '@/components/ui/state-message';
import { useDisputes, useFraudWarnings } from '@/features/disputes/api/disputes';
import { DisputeList } from '@/features/disputes/components/dispute-list';
import { WarnedOrders } from '@/features/disputes/components/warned-orders';

import { RequireRole } from './admin-access';
import './admin-page.css';
import './admin-disputes.css';

function Disputes() {
  const disputes = useDisputes();

  const content = (
    <QueryBoundary
      query={disputes}
      loading={
        <SkeletonList
          className="admin-page__loading"
          label="Loading the disputes"
          height={96}
          count={2}
        />
      }
      errorTitle="We couldn't load the disputes"
    >
      {(data) =>
        data.length === 0 ? (
          <StateMessage
            role="status"
            icon={<CheckCircleIcon size={28} />}
            title="No disputes."
            description="When a buyer disputes a payment, it shows here with the evidence the shop built from the delivery record."
          />
        ) : (
          <DisputeList disputes={data} />
        )
      }
    </QueryBoundary>
  );

  return (
    <div className="container admin-page">
      <AdminPageHeader
        title="Disputes"
        intro="A dispute of a delivered order gets its delivery record staged with Stripe as evidence. Review it and submit, or accept the dispute."
      />
      <section className="admin-page__section" aria-labelledby="disputes-title">
        <h2 id="disputes-title" className="admin-page__section-title">
          Disputes
        </h2>
        {content}
      </section>
      <FraudWarnings />
    </div>
  );
}

/** Delivered orders warned of fraud, whose evidence is prepared before any dispute. */
function FraudWarnings() {
  const warned = useFraudWarnings();
  const content = (
    <QueryBoundary
      query={warned}
      loading={<Skeleton height={72} radius="var(--radius-lg)" />}
      errorTitle="We couldn't load the fraud warnings"
    >
      {(data) =>
        data.length === 0 ? (
          <p className="admin-page__intro">No fraud warnings on delivered orders.</p>
        ) : (
          <WarnedOrders warned={data} />
        )
      }
    </QueryBoundary>
  );
  return (
    <section className="admin-page__section" aria-labelledby="fraud-warnings-title">
      <h2 id="fraud-warnings-title" className="admin-page__section-title">
        Fraud warnings on delivered orders
      </h2>
      {content}
    </section>
  );
}

export function AdminDisputesRoute() {
  return (
    <>
      <title>Disputes · Admin · Garden Shop</title>
      <RequireRole role="super_admin">
        <Disputes />
      </RequireRole>
    </>
  );
}
