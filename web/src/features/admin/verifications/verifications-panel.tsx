import { useState } from 'react';
import { QueryState } from '../../../components/ui/query-state.tsx';
import { NoticeLine } from '../shared/notice-line.tsx';
import { PanelHead } from '../shared/panel-head.tsx';
import { useNotice } from '../../../hooks/use-notice.ts';
import { type PendingVerification, usePendingVerifications } from './api/get-pending-verifications.ts';
import { VerificationCard } from './components/verification-card.tsx';
import { VerifyDialog } from './components/verify-dialog.tsx';

/** Verifications: payments buyers marked as sent, oldest first, to check on the chain and verify or reject. */
export function VerificationsPanel() {
  const pending = usePendingVerifications();
  const [open, setOpen] = useState<{ item: PendingVerification; verified: boolean } | null>(null);
  const { notice, success } = useNotice();
  return (
    <>
      <PanelHead title="Verifications">
        Payments buyers marked as sent, oldest first. Check each on the chain, then verify or reject it.
      </PanelHead>
      <NoticeLine notice={notice} />
      <QueryState
        query={pending}
        errorFallback="Failed to load pending verifications"
        isEmpty={(list) => list.length === 0}
        empty="No payment is waiting to be verified."
      >
        {(list) => (
          <ul className="card-list">
            {list.map((item) => (
              <VerificationCard
                key={item.escrow.id}
                item={item}
                onVerify={() => setOpen({ item, verified: true })}
                onReject={() => setOpen({ item, verified: false })}
              />
            ))}
          </ul>
        )}
      </QueryState>
      <VerifyDialog
        item={open?.item ?? null}
        verified={open?.verified ?? true}
        onClose={() => setOpen(null)}
        onDone={success}
      />
    </>
  );
}
