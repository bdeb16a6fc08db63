import type { ReactNode } from 'react';

/** A panel's heading (it names the panel's section for screen readers) with what it is for and its one next step. */
export function PanelHead({ title, children, actions }: { title: string; children?: ReactNode; actions?: ReactNode }) {
  return (
    <div className="panel-head">
      <div>
        <h2 id="admin-panel-title">{title}</h2>
        {children && <p className="muted">{children}</p>}
      </div>
      {actions && <div className="panel-actions">{actions}</div>}
    </div>
  );
}
