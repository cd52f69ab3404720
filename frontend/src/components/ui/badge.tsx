import type { HTMLAttributes } from 'react';

import './badge.css';

export type BadgeTone = 'neutral' | 'brand' | 'accent' | 'warning' | 'danger' | 'special';

type BadgeProps = HTMLAttributes<HTMLSpanElement> & { tone?: BadgeTone };

export function Badge({ tone = 'neutral', className, ...props }: BadgeProps) {
  return (
    <span className={['badge', `badge--${tone}`, className].filter(Boolean).join(' ')} {...props} />
  );
}
