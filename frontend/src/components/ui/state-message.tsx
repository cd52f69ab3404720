import type { ReactNode } from 'react';

import './state-message.css';

type StateMessageProps = {
  title: ReactNode;
  description?: ReactNode;
  icon?: ReactNode;
  /** The next step, e.g. a Retry or Clear filters button. */
  action?: ReactNode;
  tone?: 'neutral' | 'danger';
  /** "alert" for errors so screen readers announce them. */
  role?: 'status' | 'alert';
  /** The title's heading level, to fit the page's outline. */
  headingLevel?: 1 | 2 | 3;
};

/** Empty and error states: what happened and what to do next. */
export function StateMessage({
  title,
  description,
  icon,
  action,
  tone = 'neutral',
  role,
  headingLevel = 2,
}: StateMessageProps) {
  const Heading = `h${headingLevel}` as const;
  return (
    <div className={`state-message state-message--${tone}`} role={role}>
      {icon ? <div className="state-message__icon">{icon}</div> : null}
      <Heading className="state-message__title">{title}</Heading>
      {description ? <p className="state-message__description">{description}</p> : null}
      {action ? <div className="state-message__action">{action}</div> : null}
    </div>
  );
}
