import { Field } from '../../../../components/ui/field.tsx';
import { formatBtc, formatUsd } from '../../../../lib/format.ts';
import { ActionDialog } from '../../shared/action-dialog.tsx';
import { useResetState } from '../../../../hooks/use-reset-state.ts';
import { useCancelEscrow } from '../api/cancel-escrow.ts';
import type { AdminEscrow } from '../api/get-escrow.ts';
import { EmailAddress } from '../../../../components/ui/email-address.tsx';

/** Cancels an unpaid escrow (a hoarded pool address, say): what it is, the address it frees, and a reason for both parties. */
export function CancelDialog({
  escrow,
  onClose,
  onDone,
}: {
  escrow: AdminEscrow | null;
  onClose: () => void;
  onDone: (message: string) => void;
}) {
  const [reason, setReason] = useResetState(escrow?.id, () => '');
  const cancel = useCancelEscrow();
  return (
    <ActionDialog
      open={escrow !== null}
      onOpenChange={(open) => !open && onClose()}
      title="Cancel this unpaid escrow?"
      description="It ends for good; both parties are mailed your reason."
      confirmLabel="Cancel escrow"
      tone="danger"
      fallback="Failed to cancel escrow"
      check={() => (reason.trim() ? null : 'Give a reason (both parties are mailed it)')}
      run={async (totp_code) => {
        await cancel.mutateAsync({ escrowId: escrow!.id, reason, totp_code });
        return 'Escrow cancelled';
      }}
      onDone={onDone}
    >
      {escrow && (
        <dl className="facts">
          <dt>Escrow</dt>
          <dd className="break">
            {escrow.product_service} <span className="mono small muted">({escrow.id})</span>
          </dd>
          <dt>Amount</dt>
          <dd>
            {formatUsd(escrow.total_usd)} = <span className="mono">{formatBtc(escrow.amount_sats)}</span>
          </dd>
          <dt>Buyer</dt>
          <dd className="break">
            <EmailAddress value={escrow.buyer_email} />
          </dd>
          <dt>Address freed</dt>
          <dd className="mono break">{escrow.assigned_address ?? <span className="muted">none assigned</span>}</dd>
        </dl>
      )}
      <Field label="Reason" required hint="Mailed to both parties and kept in the log.">
        <textarea rows={2} value={reason} onChange={(e) => setReason(e.target.value)} maxLength={1000} />
      </Field>
    </ActionDialog>
  );
}
