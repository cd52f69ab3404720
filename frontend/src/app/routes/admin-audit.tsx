import { AdminPageHeader } from '@/app/routes/admin-page-header';
import { useState, type ReactNode } from 'react';

import { Button } from '@/components/ui/button';
import { ShieldIcon } from '@/components/ui/icons';
import { QueryBoundary } from '@/components/ui/query-boundary';
import { SkeletonList } from '@/components/ui/skeleton';
import { StateMessage } from '@/components/ui/state-message';
import { useAuditLog } from '@/features/audit/api/get-audit-log';
import { AuditFiltersForm } from '@/features/audit/components/audit-filters';
import { AuditList } from '@/features/audit/components/audit-list';
import {
  NO_FILTERS,
  type AuditActor,
  type AuditEntry,
  type AuditFilters,
} from '@/features/audit/types';
import { ApiError } from '@/lib/api-client';

import { RequireRole } from './admin-access';
import './admin-page.css';
import './admin-audit.css';

type AuditEntriesProps = {
  entries: AuditEntry[];
  filtered: boolean;
  onClearFilters: () => void;
  /** Load more, while there are older entries. */
  more: ReactNode;
};

/** The entries, or why there are none; "That is all" once the last page is in. */
function AuditEntries({ entries, filtered, onClearFilters, more }: AuditEntriesProps) {
  if (entries.length === 0) {
    return filtered ? (
      <StateMessage
        role="status"
        icon={<ShieldIcon size={28} />}
        title="Nothing matches these filters."
        description="Try another staff member, kind or dates."
        action={<Button onClick={onClearFilters}>Clear filters</Button>}
      />
    ) : (
      <StateMessage
        role="status"
        icon={<ShieldIcon size={28} />}
        title="No staff actions yet."
        description="Product, stock, promo code, order, proof, chat, blocklist and account changes appear here as staff make them."
      />
    );
  }
  return (
    <>
      <AuditList entries={entries} />
      {more ?? (
        <p className="audit-page__end">
          {entries.length === 1 ? 'One entry.' : `${entries.length} entries.`} That is all.
        </p>
      )}
    </>
  );
}

/** The filters' choices from the newest answer, kept while a new filter loads. */
function useFilterChoices(first: { actors: AuditActor[]; kinds: string[] } | undefined) {
  const [choices, setChoices] = useState<{ actors: AuditActor[]; kinds: string[] }>({
    actors: [],
    kinds: [],
  });
  if (first && (first.actors !== choices.actors || first.kinds !== choices.kinds)) {
    setChoices({ actors: first.actors, kinds: first.kinds });
  }
  return choices;
}

function AuditHeader() {
  return (
    <AdminPageHeader
      title="Audit log"
      intro="Every staff action, newest first: who did what, the values before and after, when and from which address. Nobody can change or delete an entry."
    />
  );
}

function AuditLog() {
  const [filters, setFilters] = useState<AuditFilters>(NO_FILTERS);
  const log = useAuditLog(filters);
  const choices = useFilterChoices(log.data?.pages[0]);
  const filtered = Object.values(filters).some(Boolean);
  const filterErrors =
    log.error instanceof ApiError && log.error.status === 422 ? log.error.errors : {};

  const content = (
    <QueryBoundary
      query={log}
      loading={
        <SkeletonList
          className="admin-page__loading"
          label="Loading the audit log"
          height={96}
          count={3}
        />
      }
      errorTitle="We couldn't load the audit log"
      errorAction={
        filtered ? <Button onClick={() => setFilters(NO_FILTERS)}>Clear filters</Button> : undefined
      }
    >
      {(data) => (
        <AuditEntries
          entries={data.pages.flatMap((page) => page.entries)}
          filtered={filtered}
          onClearFilters={() => setFilters(NO_FILTERS)}
          more={
            log.hasNextPage ? (
              <div className="audit-page__more">
                <Button
                  variant="secondary"
                  loading={log.isFetchingNextPage}
                  onClick={() => void log.fetchNextPage()}
                >
                  Load more
                </Button>
              </div>
            ) : null
          }
        />
      )}
    </QueryBoundary>
  );

  return (
    <div className="container admin-page">
      <AuditHeader />
      <section className="admin-page__section" aria-labelledby="audit-filters-title">
        <h2 id="audit-filters-title" className="admin-page__section-title">
          Filters
        </h2>
        <AuditFiltersForm
          filters={filters}
          actors={choices.actors}
          kinds={choices.kinds}
          errors={filterErrors}
          onChange={setFilters}
        />
      </section>
      <section className="admin-page__section" aria-labelledby="audit-entries-title">
        <h2 id="audit-entries-title" className="admin-page__section-title">
          Entries
        </h2>
        {content}
      </section>
    </div>
  );
}

export function AdminAuditRoute() {
  return (
    <>
      <title>Audit log · Admin · Garden Shop</title>
      <RequireRole role="super_admin">
        <AuditLog />
      </RequireRole>
    </>
  );
}
