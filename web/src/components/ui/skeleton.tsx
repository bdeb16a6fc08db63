import type { ReactNode } from 'react';

/** The shapes a skeleton is drawn with (sizes in styles.css). */
export type SkeletonShape = 'title' | 'line' | 'short' | 'pill' | 'card';

/** A grey shape where content is about to appear. */
export function SkeletonBlock({ shape }: { shape: SkeletonShape }) {
  return <span className={`skeleton-block skeleton-${shape}`} aria-hidden="true" />;
}

/**
 * The outline of a page while it loads: the shapes are hidden from screen readers, which hear the label once
 * (a polite status), as with the spinner.
 */
export function PageSkeleton({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="page-skeleton" role="status" aria-live="polite" aria-busy="true">
      <span className="visually-hidden">{label}</span>
      {children}
    </div>
  );
}
