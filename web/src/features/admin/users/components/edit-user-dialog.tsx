import { Field } from '../../../../components/ui/field.tsx';
import { ActionDialog } from '../../shared/action-dialog.tsx';
import { useResetState } from '../../../../hooks/use-reset-state.ts';
import type { AdminUser, Role } from '../api/get-users.ts';
import { useUpdateUser } from '../api/update-user.ts';

/** Spec: Edit modal with Full Name, Email and a Role select; Update User / Cancel; only non-empty fields are sent. */
export function EditUserDialog({
  user,
  onClose,
  onDone,
}: {
  user: AdminUser | null;
  onClose: () => void;
  onDone: (message: string) => void;
}) {
  const [fullName, setFullName] = useResetState(user?.id, () => user?.full_name ?? '');
  const [email, setEmail] = useResetState(user?.id, () => user?.email ?? '');
  const [role, setRole] = useResetState<Role | ''>(user?.id, () => user?.role ?? '');
  const update = useUpdateUser();
  return (
    <ActionDialog
      open={user !== null}
      onOpenChange={(open) => !open && onClose()}
      title="Edit user"
      description={user ? `@${user.username}` : undefined}
      confirmLabel="Update User"
      fallback="Failed to update user"
      run={async (totp_code) =>
        (await update.mutateAsync({ id: user!.id, full_name: fullName, email, role, totp_code })).detail
      }
      onDone={onDone}
    >
      <Field label="Full Name">
        <input value={fullName} onChange={(e) => setFullName(e.target.value)} autoComplete="off" />
      </Field>
      <Field label="Email">
        <input type="email" value={email} onChange={(e) => setEmail(e.target.value)} autoComplete="off" />
      </Field>
      <Field label="Role">
        <select value={role} onChange={(e) => setRole(e.target.value as Role)}>
          <option value="buyer">buyer</option>
          <option value="seller">seller</option>
          <option value="admin">admin</option>
        </select>
      </Field>
    </ActionDialog>
  );
}
