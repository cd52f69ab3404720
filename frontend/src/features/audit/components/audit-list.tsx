import { Badge, type BadgeTone } from '@/components/ui/badge';

import type { AuditEntry } from '@/features/audit/types';
import { describeChanges, entrySubject, kindLabel } from '@/features/audit/utils/describe-entry';

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });

function tone(kind: string): BadgeTone {
  if (kind.endsWith('.delete') || kind === 'blocklist.add' || kind === 'review.hide') {
    return 'danger';
  }
  if (kind.startsWith('user.')) return 'special';
  if (kind.startsWith('order.')) return 'accent';
  if (kind.endsWith('.create')) return 'brand';
  return 'neutral';
}

function Changes({ entry }: { entry: AuditEntry }) {
  const changes = describeChanges(entry);
  if (changes.length === 0) {
    return <p className="audit-entry__none">No values changed.</p>;
  }
  return (
    <dl className="audit-entry__changes">
      {changes.map((change) => (
        <div key={change.field} className="audit-entry__change">
          <dt>{change.field}</dt>
          <dd>
            {change.before !== undefined ? (
              <span className={change.after !== undefined ? 'audit-entry__before' : undefined}>
                {change.before}
              </span>
            ) : null}
            {change.before !== undefined && change.after !== undefined ? (
              <span className="audit-entry__arrow" aria-label="changed to">
                {' → '}
              </span>
            ) : null}
            {change.after !== undefined ? (
              <span className="audit-entry__after">{change.after}</span>
            ) : null}
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** The entries, newest first: what, on what, by whom, when and from where, and the values. */
export function AuditList({ entries }: { entries: AuditEntry[] }) {
  return (
    <ol className="audit-list" aria-label="Audit log entries">
      {entries.map((entry) => {
        const label = kindLabel(entry.kind);
        const subject = entrySubject(entry);
        return (
          <li key={entry.id} className="audit-entry" aria-label={`${label} ${entry.target}`}>
            <div className="audit-entry__head">
              <Badge tone={tone(entry.kind)}>{label}</Badge>
              <span className="audit-entry__target">{entry.target}</span>
              {subject ? <span className="audit-entry__subject">{subject}</span> : null}
            </div>
            <p className="audit-entry__meta">
              By <strong>{entry.actor.name}</strong> on{' '}
              <time dateTime={entry.at}>{dateFormat.format(new Date(entry.at))}</time>
              {entry.ip ? <> from {entry.ip}</> : null}
            </p>
            <Changes entry={entry} />
          </li>
        );
      })}
    </ol>
  );
}
