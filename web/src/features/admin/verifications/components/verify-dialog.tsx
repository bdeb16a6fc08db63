import { Field } from '../../../../components/ui/field.tsx';
import { formatBtc, formatUsd } from '../../../../lib/format.ts';
import { ActionDialog } from '../../shared/action-dialog.tsx';
import { txidRefusal } from '../../shared/txid.ts';
import { useResetState } from '../../shared/use-reset-state.ts';
import type { PendingVerification } from '../api/get-pending-verifications.ts';
import { useVerifyPayment } from '../api/verify-payment.ts';

interface VerifyDialogProps {
  item: PendingVerification | null;
  verified: boolean;
  onClose: () => void;
  onDone: (message: string) => void;
}

/** Verify (with an optional txid) or reject a marked payment, showing the amount and the address it was due at. */
export function VerifyDialog({ item, verified, onClose, onDone }: VerifyDialogProps) {
  const [notes, setNotes] = useResetState(item, () => '');
  const [txid, setTxid] = useResetState(item, () => '');
  const verify = useVerifyPayment();
  const escrow = item?.escrow;
  return (
    <ActionDialog
      open={item !== null}
      onOpenChange={(open) => !open && onClose()}
      title={verified ? 'Verify this payment?' : 'Reject this payment?'}
      description={
        verified
          ? 'Only if you saw the full amount arrive at this address on the chain. The escrow becomes funded.'
          : 'The payment mark is cleared; the buyer is told and may mark it again.'
      }
      confirmLabel={verified ? 'Verify payment' : 'Reject payment'}
      tone={verified ? 'primary' : 'danger'}
      fallback="Failed to verify payment"
      check={() => (verified ? txidRefusal(txid) : notes.trim() ? null : 'Say why, for the buyer')}
      run={async (totp_code) => {
        await verify.mutateAsync({ escrowId: escrow!.id, verified, notes, txid: verified ? txid : '', totp_code });
        return verified ? 'Payment verified: the escrow is funded' : 'Payment rejected: the buyer was told';
      }}
      onDone={onDone}
    >
      {escrow && (
        <dl className="facts">
          <dt>Amount due</dt>
          <dd className="mono">
            {formatBtc(escrow.amount_sats)} ({formatUsd(escrow.total_usd)})
          </dd>
          <dt>At address</dt>
          <dd className="mono break">{escrow.assigned_address}</dd>
        </dl>
      )}
      <Field label={verified ? 'Notes' : 'Reason (sent to the buyer)'} required={!verified}>
        <textarea rows={2} value={notes} onChange={(e) => setNotes(e.target.value)} maxLength={5000} />
      </Field>
      {verified && (
        <Field label="Transaction id (optional)" hint="64 hexadecimal characters">
          <input className="mono" value={txid} onChange={(e) => setTxid(e.target.value)} spellCheck={false} autoComplete="off" />
        </Field>
      )}
    </ActionDialog>
  );
}
