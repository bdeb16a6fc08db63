import { Field } from '../../../../components/ui/field.tsx';
import { ActionDialog } from '../../shared/action-dialog.tsx';
import { useResetState } from '../../../../hooks/use-reset-state.ts';
import type { AdminUser } from '../api/get-users.ts';
import { useSuspendUser } from '../api/suspend-user.ts';

/** Spec: suspension asks for a reason (required); cancelling changes nothing. */
export function SuspendDialog({
  user,
  onClose,
  onDone,
}: {
  user: AdminUser | null;
  onClose: () => void;
  onDone: (message: string) => void;
}) {
  const [reason, setReason] = useResetState(user?.id, () => '');
  const suspend = useSuspendUser();
  return (
    <ActionDialog
      open={user !== null}
      onOpenChange={(open) => !open && onClose()}
      title={`Suspend ${user?.full_name ?? ''}?`}
      description="They are signed out everywhere and cannot sign in until unsuspended. Their escrows are not changed."
      confirmLabel="Suspend"
      tone="danger"
      fallback="Failed to suspend user"
      check={() => (reason.trim() ? null : 'Please provide a reason for the suspension')}
      run={async (totp_code) => (await suspend.mutateAsync({ id: user!.id, reason: reason.trim(), totp_code })).detail}
      onDone={onDone}
    >
      <Field label="Reason" required>
        <textarea rows={3} value={reason} onChange={(e) => setReason(e.target.value)} maxLength={1000} />
      </Field>
    </ActionDialog>
  );
}
