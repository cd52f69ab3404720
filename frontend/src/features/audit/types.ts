import type { operations } from '@/types/api.gen';
import type { Schemas } from '@/types/api';

/** Who did a staff action: a staff member, or the command line (`id` null). */
export type AuditActor = Schemas['AuditActorJson'];

/**
 * One entry of GET /api/admin/audit: `kind` dotted ("stock.set"), `target` what was acted on
 * ("product:12"), `before`/`after` the values replaced (null for a creation) and written (null for
 * a deletion), `ip` null for the command line. openapi-typescript renders the document's free-form
 * objects as `Record<string, never>`, which no value fits: here they hold any JSON values.
 */
export type AuditEntry = Omit<Schemas['AuditEntryJson'], 'before' | 'after'> & {
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
};

/** A page of the log, newest first, with what the filters can choose from. */
export type AuditPage = Omit<Schemas['AuditPage'], 'entries'> & { entries: AuditEntry[] };

/** The query GET /api/admin/audit takes. */
export type AuditQuery = NonNullable<operations['admin_list_audit']['parameters']['query']>;

/** The filters as the page holds them: '' is "any". Dates are local days (YYYY-MM-DD). */
export type AuditFilters = {
  /** A user id, "cli" for the command line, or '' for everyone. */
  actor: string;
  kind: string;
  from: string;
  to: string;
};

export const NO_FILTERS: AuditFilters = { actor: '', kind: '', from: '', to: '' };
