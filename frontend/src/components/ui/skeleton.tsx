import type { CSSProperties } from 'react';

import './skeleton.css';

type SkeletonProps = {
  width?: CSSProperties['width'];
  height?: CSSProperties['height'];
  radius?: CSSProperties['borderRadius'];
  className?: string;
};

/** A grey shimmering block standing in for content that is loading. */
export function Skeleton({ width = '100%', height = '1em', radius, className }: SkeletonProps) {
  return (
    <span
      className={['skeleton', className].filter(Boolean).join(' ')}
      style={{ width, height, borderRadius: radius }}
      aria-hidden="true"
    />
  );
}

type SkeletonListProps = {
  /** The list's own layout class. */
  className: string;
  /** What is loading, for assistive technology ("Loading the audit log"). */
  label: string;
  /** Each block's height in pixels. */
  height: number;
  count?: number;
};

/** A list still loading: `count` equal blocks in the list's own layout, marked busy. */
export function SkeletonList({ className, label, height, count = 3 }: SkeletonListProps) {
  return (
    <div className={className} aria-busy="true" aria-label={label}>
      {Array.from({ length: count }, (_, index) => (
        <Skeleton key={index} height={height} radius="var(--radius-lg)" />
      ))}
    </div>
  );
}
