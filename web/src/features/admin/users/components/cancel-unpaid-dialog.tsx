import { Field } from '../../../../components/ui/field.tsx';
import { ActionDialog } from '../../shared/action-dialog.tsx';
import { useResetState } from '../../../../hooks/use-reset-state.ts';
import { useCancelUnpaidEscrows } from '../api/cancel-unpaid-escrows.ts';
import type { AdminUser } from '../api/get-users.ts';
import { EmailAddress } from '../../../../components/ui/email-address.tsx';

/** For a suspended account: every escrow of theirs still waiting for payment (none marked) ends, its address freed. */
export function CancelUnpaidDialog({
  user,
  onClose,
  onDone,
}: {
  user: AdminUser | null;
  onClose: () => void;
  onDone: (message: string) => void;
}) {
  const [reason, setReason] = useResetState(user?.id, () => '');
  const cancel = useCancelUnpaidEscrows();
  return (
    <ActionDialog
      open={user !== null}
      onOpenChange={(open) => !open && onClose()}
      title={`Cancel the unpaid escrows of ${user?.full_name ?? ''}?`}
      description="Every escrow of theirs still waiting for a payment (none marked as sent) is cancelled and its payment address goes back to the pool. Both parties of each are mailed your reason. Paid escrows are not touched."
      confirmLabel="Cancel unpaid escrows"
      tone="danger"
      fallback="Failed to cancel the unpaid escrows"
      check={() => (reason.trim() ? null : 'Give a reason (both parties of each escrow are mailed it)')}
      run={async (totp_code) => {
        const answer = await cancel.mutateAsync({ id: user!.id, reason: reason.trim(), totp_code });
        const left = answer.skipped.map((s) => `escrow ${s.id.slice(0, 8)}: ${s.detail}`).join('; ');
        return left ? `${answer.detail}: ${left}` : answer.detail;
      }}
      onDone={onDone}
    >
      {user && (
        <p className="small break">
          Account: @{user.username} (<EmailAddress value={user.email} />)
        </p>
      )}
      <Field label="Reason" required>
        <textarea rows={3} value={reason} onChange={(e) => setReason(e.target.value)} maxLength={1000} />
      </Field>
    </ActionDialog>
  );
}
