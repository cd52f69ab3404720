import { AdminPageHeader } from '@/app/routes/admin-page-header';

import { CheckCircleIcon } from '@/components/ui/icons';
import { QueryBoundary } from '@/components/ui/query-boundary';
import { SkeletonList } from '@/components/ui/skeleton';
import { StateMessage } from '@/components/ui/state-message';
import { useBlocklist } from '@/features/blocklist/api/blocklist';
import { BlockForm } from '@/features/blocklist/components/block-form';
import { BlockList } from '@/features/blocklist/components/block-list';

import { RequireRole } from './admin-access';
import './admin-page.css';
import './admin-blocklist.css';

function Blocklist() {
  const blocklist = useBlocklist();

  const content = (
    <QueryBoundary
      query={blocklist}
      loading={
        <SkeletonList
          className="admin-page__loading"
          label="Loading the blocklist"
          height={72}
          count={2}
        />
      }
      errorTitle="We couldn't load the blocklist"
    >
      {({ entries, total }) =>
        entries.length === 0 ? (
          <StateMessage
            role="status"
            icon={<CheckCircleIcon size={28} />}
            title="Nobody is blocked."
            description="A chargeback blocks the buyer here by itself."
          />
        ) : (
          <>
            {total > entries.length ? (
              <p className="admin-page__intro">
                The newest {entries.length} of {total} entries.
              </p>
            ) : null}
            <BlockList entries={entries} />
          </>
        )
      }
    </QueryBoundary>
  );

  return (
    <div className="container admin-page">
      <AdminPageHeader
        title="Blocklist"
        intro="Checkout refuses these e-mails, Discord accounts, Roblox usernames and addresses without saying why. The help chat stays open to them."
      />
      <section className="admin-page__section" aria-labelledby="blocklist-add-title">
        <h2 id="blocklist-add-title" className="admin-page__section-title">
          Block someone
        </h2>
        <BlockForm />
      </section>
      <section className="admin-page__section" aria-labelledby="blocklist-entries-title">
        <h2 id="blocklist-entries-title" className="admin-page__section-title">
          Blocked
        </h2>
        {content}
      </section>
    </div>
  );
}

export function AdminBlocklistRoute() {
  return (
    <>
      <title>Blocklist · Admin · Garden Shop</title>
      <RequireRole role="super_admin">
        <Blocklist />
      </RequireRole>
    </>
  );
}
