import { useState } from 'react';
import { QueryState } from '../../../components/ui/query-state.tsx';
import type { AdminEscrow } from '../escrows/api/get-escrow.ts';
import { NoticeLine } from '../shared/notice-line.tsx';
import { PanelHead } from '../shared/panel-head.tsx';
import { useNotice } from '../../../hooks/use-notice.ts';
import { type Dispute, useDisputes } from './api/get-disputes.ts';
import { DisputeCard } from './components/dispute-card.tsx';
import { ResolveDialog } from './components/resolve-dialog.tsx';

/** Disputes: open ones first, then resolved ones, each with its escrow, parties, reason and evidence. */
export function DisputesPanel() {
  const disputes = useDisputes();
  const [open, setOpen] = useState<{ dispute: Dispute; escrow: AdminEscrow } | null>(null);
  const { notice, success } = useNotice();
  return (
    <>
      <PanelHead title="Disputes">
        Open disputes first. Read both sides and the evidence, then resolve with an outcome.
      </PanelHead>
      <NoticeLine notice={notice} />
      <QueryState
        query={disputes}
        errorFallback="Failed to load disputes"
        isEmpty={(list) => list.length === 0}
        empty="No disputes."
      >
        {(list) => (
          <>
            {(['open', 'resolved'] as const).map((status) => {
              const group = list.filter((d) => d.status === status);
              return (
                <section key={status} aria-labelledby={`disputes-${status}`}>
                  <h3 id={`disputes-${status}`}>
                    {status === 'open' ? 'Open' : 'Resolved'} ({group.length})
                  </h3>
                  {group.length === 0 ? (
                    <p className="empty">{status === 'open' ? 'No open disputes.' : 'None resolved yet.'}</p>
                  ) : (
                    <ul className="card-list">
                      {group.map((d) => (
                        <DisputeCard key={d.id} dispute={d} onResolve={(escrow) => setOpen({ dispute: d, escrow })} />
                      ))}
                    </ul>
                  )}
                </section>
              );
            })}
          </>
        )}
      </QueryState>
      <ResolveDialog
        dispute={open?.dispute ?? null}
        escrow={open?.escrow ?? null}
        onClose={() => setOpen(null)}
        onDone={success}
      />
    </>
  );
}
