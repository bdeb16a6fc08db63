import { ActionDialog } from '../../shared/action-dialog.tsx';
import type { AdminUser } from '../api/get-users.ts';
import { useUnsuspendUser } from '../api/unsuspend-user.ts';

export function UnsuspendDialog({
  user,
  onClose,
  onDone,
}: {
  user: AdminUser | null;
  onClose: () => void;
  onDone: (message: string) => void;
}) {
  const unsuspend = useUnsuspendUser();
  return (
    <ActionDialog
      open={user !== null}
      onOpenChange={(open) => !open && onClose()}
      title={`Unsuspend ${user?.full_name ?? ''}?`}
      description="They can sign in again."
      confirmLabel="Unsuspend"
      fallback="Failed to unsuspend user"
      run={async (totp_code) => (await unsuspend.mutateAsync({ id: user!.id, totp_code })).detail}
      onDone={onDone}
    >
      {user?.suspension_reason && <p className="small">Suspended because: {user.suspension_reason}</p>}
    </ActionDialog>
  );
}
