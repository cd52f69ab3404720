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

type FilterField = {
  label: string;
  error: string | undefined;
  value: string;
  onChange: (value: string) => void;
};

function SelectField({
  label,
  error,
  value,
  onChange,
  options,
}: FilterField & { options: ReadonlyArray<readonly [string, string]> }) {
  return (
    <Field label={label} error={error}>
      {(control) => (
        <select
          {...control}
          className="form-control"
          value={value}
          onChange={(event) => onChange(event.target.value)}
        >
          {options.map(([option, name]) => (
            <option key={option} value={option}>
              {name}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

/** A day; `min`/`max` keep From before To (empty: no bound). */
function DateField({
  label,
  error,
  value,
  min,
  max,
  onChange,
}: FilterField & { min?: string; max?: string }) {
  return (
    <Field label={label} error={error}>
      {(control) => (
        <input
          {...control}
          type="date"
          className="form-control"
          value={value}
          min={min || undefined}
          max={max || undefined}
          onChange={(event) => onChange(event.target.value)}
        />
      )}
    </Field>
  );
}

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
      <SelectField
        label="Staff member"
        error={errors.actor_id?.[0]}
        value={filters.actor}
        onChange={set('actor')}
        options={[
          ['', 'Everyone'],
          ...actorOptions.map(
            (actor) => [actor.id === null ? 'cli' : String(actor.id), actor.name] as const,
          ),
        ]}
      />
      <SelectField
        label="Kind"
        error={errors.kind?.[0]}
        value={filters.kind}
        onChange={set('kind')}
        options={[['', 'Every kind'], ...kinds.map((kind) => [kind, kindLabel(kind)] as const)]}
      />
      <DateField
        label="From"
        error={errors.since?.[0]}
        value={filters.from}
        max={filters.to}
        onChange={set('from')}
      />
      <DateField
        label="To"
        error={errors.before?.[0]}
        value={filters.to}
        min={filters.from}
        onChange={set('to')}
      />
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
