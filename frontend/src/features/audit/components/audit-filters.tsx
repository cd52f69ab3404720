import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';

import type { AuditActor, AuditFilters } from '@/features/audit/types';
import { kindLabel } from '@/features/audit/utils/describe-entry';

type AuditFiltersProps = {
  filters: AuditFilters;
  actors: AuditActor[];
  kinds: string[];
  /** Per-field messages of the server's 422 on a bad filter. */
  errors?: Record<string, string[]>;
  onChange: (filters: AuditFilters) => void;
};

/** Staff member, kind and a from/to day; every change applies at once. */
export function AuditFiltersForm({
  filters,
  actors,
  kinds,
  errors = {},
  onChange,
}: AuditFiltersProps) {
  const set = (key: keyof AuditFilters) => (value: string) =>
    onChange({ ...filters, [key]: value });
  const filtered = Object.values(filters).some(Boolean);
  // a chosen staff member stays listed even before the log answers
  const actorOptions =
    filters.actor && !actors.some((actor) => String(actor.id ?? 'cli') === filters.actor)
      ? [...actors, { id: null, name: `Staff #${filters.actor}` }]
      : actors;

  return (
    <form
      className="audit-filters"
      aria-label="Filter the audit log"
      onSubmit={(event) => event.preventDefault()}
    >
      <Field label="Staff member" error={errors.actor_id?.[0]}>
        {(control) => (
          <select
            {...control}
            className="form-control"
            value={filters.actor}
            onChange={(event) => set('actor')(event.target.value)}
          >
            <option value="">Everyone</option>
            {actorOptions.map((actor) => (
              <option key={actor.id ?? 'cli'} value={actor.id === null ? 'cli' : String(actor.id)}>
                {actor.name}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field label="Kind" error={errors.kind?.[0]}>
        {(control) => (
          <select
            {...control}
            className="form-control"
            value={filters.kind}
            onChange={(event) => set('kind')(event.target.value)}
          >
            <option value="">Every kind</option>
            {kinds.map((kind) => (
              <option key={kind} value={kind}>
                {kindLabel(kind)}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field label="From" error={errors.since?.[0]}>
        {(control) => (
          <input
            {...control}
            type="date"
            className="form-control"
            value={filters.from}
            max={filters.to || undefined}
            onChange={(event) => set('from')(event.target.value)}
          />
        )}
      </Field>
      <Field label="To" error={errors.before?.[0]}>
        {(control) => (
          <input
            {...control}
            type="date"
            className="form-control"
            value={filters.to}
            min={filters.from || undefined}
            onChange={(event) => set('to')(event.target.value)}
          />
        )}
      </Field>
      <div className="audit-filters__actions">
        <Button
          type="button"
          variant="ghost"
          disabled={!filtered}
          onClick={() => onChange({ actor: '', kind: '', from: '', to: '' })}
        >
          Clear filters
        </Button>
      </div>
    </form>
  );
}
