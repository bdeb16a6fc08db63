import type { ReactNode } from 'react';

/** An inline message: success and info are announced politely, errors at once. */
export function Message({ tone, children }: { tone: 'success' | 'error' | 'info'; children: ReactNode }) {
  return (
    <div className={`message message-${tone}`} role={tone === 'error' ? 'alert' : 'status'}>
      {children}
    </div>
  );
}
