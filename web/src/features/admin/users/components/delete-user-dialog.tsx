import { ActionDialog } from '../../shared/action-dialog.tsx';
import { useDeleteUser } from '../api/delete-user.ts';
import type { AdminUser } from '../api/get-users.ts';
import { EmailAddress } from '../../../../components/ui/email-address.tsx';

/** Spec: a confirmation that says it cannot be undone; the server refuses a user with unfinished escrows (its detail shown). */
export function DeleteUserDialog({
  user,
  onClose,
  onDone,
}: {
  user: AdminUser | null;
  onClose: () => void;
  onDone: (message: string) => void;
}) {
  const remove = useDeleteUser();
  return (
    <ActionDialog
      open={user !== null}
      onOpenChange={(open) => !open && onClose()}
      title={`Delete ${user?.full_name ?? ''}?`}
      description="This action cannot be undone. A user with unfinished escrows cannot be deleted."
      confirmLabel="Delete user"
      tone="danger"
      fallback="Failed to delete user"
      run={async (totp_code) => (await remove.mutateAsync({ id: user!.id, totp_code })).detail}
      onDone={onDone}
    >
      <p className="small">
        @{user?.username} · {user && <EmailAddress value={user.email} />}
      </p>
    </ActionDialog>
  );
}
