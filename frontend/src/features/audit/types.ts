/** Who did a staff action: a staff member, or the command line (`id` null). */
export type AuditActor = { id: number | null; name: string };

/** One entry of GET /api/admin/audit. */
export type AuditEntry = {
  id: number;
  at: string;
  actor: AuditActor;
  /** Dotted, e.g. "stock.set". */
  kind: string;
  /** What was acted on, e.g. "product:12". */
  target: string;
  /** The values the action replaced; null for a creation. */
  before: unknown;
  /** The values it wrote; null for a deletion. */
  after: unknown;
  /** The client's address; null for the command line. */
  ip: string | null;
};

/** A page of the log, newest first, with what the filters can choose from. */
export type AuditPage = {
  entries: AuditEntry[];
  /** The `cursor` of the next (older) page; null on the last page. */
  next_cursor: number | null;
  actors: AuditActor[];
  kinds: string[];
};

/** The filters as the page holds them: '' is "any". Dates are local days (YYYY-MM-DD). */
export type AuditFilters = {
  /** A user id, "cli" for the command line, or '' for everyone. */
  actor: string;
  kind: string;
  from: string;
  to: string;
};

export const NO_FILTERS: AuditFilters = { actor: '', kind: '', from: '', to: '' };
