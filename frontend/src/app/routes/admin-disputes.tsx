import { Link } from 'react-router';

import { Button, buttonClassName } from '@/components/ui/button';
import { AlertIcon, ArrowLeftIcon, CheckCircleIcon } from '@/components/ui/icons';
import { Skeleton } from '@/components/ui/skeleton';
import { StateMessage } from '@/components/ui/state-message';
import { paths } from '@/config/paths';
import { useDisputes, useFraudWarnings } from '@/features/disputes/api/disputes';
import { DisputeList } from '@/features/disputes/components/dispute-list';
import { WarnedOrders } from '@/features/disputes/components/warned-orders';
import { errorMessage } from '@/lib/api-client';

import { RequireRole } from './admin-access';
import './admin-page.css';
import './admin-disputes.css';

function Disputes() {
  const disputes = useDisputes();

  let content;
  if (disputes.isPending) {
    content = (
      <div className="admin-page__loading" aria-busy="true" aria-label="Loading the disputes">
        <Skeleton height={96} radius="var(--radius-lg)" />
        <Skeleton height={96} radius="var(--radius-lg)" />
      </div>
    );
  } else if (disputes.isError) {
    content = (
      <StateMessage
        tone="danger"
        role="alert"
        icon={<AlertIcon size={28} />}
        title="We couldn't load the disputes"
        description={errorMessage(disputes.error)}
        action={
          <Button onClick={() => void disputes.refetch()} loading={disputes.isFetching}>
            Retry
          </Button>
        }
      />
    );
  } else if (disputes.data.length === 0) {
    content = (
      <StateMessage
        role="status"
        icon={<CheckCircleIcon size={28} />}
        title="No disputes."
        description="When a buyer disputes a payment, it shows here with the evidence the shop built from the delivery record."
      />
    );
  } else {
    content = <DisputeList disputes={disputes.data} />;
  }

  return (
    <div className="container admin-page">
      <header className="admin-page__header">
        <div>
          <h1 className="admin-page__title">Disputes</h1>
          <p className="admin-page__intro">
            A dispute of a delivered order gets its delivery record staged with Stripe as evidence.
            Review it and submit, or accept the dispute.
          </p>
        </div>
        <Link
          to={paths.adminProducts.getHref()}
          className={buttonClassName({ variant: 'secondary' })}
        >
          <ArrowLeftIcon size={18} />
          Products
        </Link>
      </header>
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
  let content;
  if (warned.isPending) {
    content = <Skeleton height={72} radius="var(--radius-lg)" />;
  } else if (warned.isError) {
    content = (
      <StateMessage
        tone="danger"
        role="alert"
        icon={<AlertIcon size={28} />}
        title="We couldn't load the fraud warnings"
        description={errorMessage(warned.error)}
        action={
          <Button onClick={() => void warned.refetch()} loading={warned.isFetching}>
            Retry
          </Button>
        }
      />
    );
  } else if (warned.data.length === 0) {
    content = <p className="admin-page__intro">No fraud warnings on delivered orders.</p>;
  } else {
    content = <WarnedOrders warned={warned.data} />;
  }
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
