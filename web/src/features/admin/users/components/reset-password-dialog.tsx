import { useState } from 'react';
import { Button } from '../../../../components/ui/button.tsx';
import { CopyButton } from '../../../../components/ui/copy-button.tsx';
import { Modal } from '../../../../components/ui/modal.tsx';
import { ActionDialog } from '../../shared/action-dialog.tsx';
import { useResetState } from '../../../../hooks/use-reset-state.ts';
import type { AdminUser } from '../api/get-users.ts';
import { temporaryPassword, useResetPassword } from '../api/reset-password.ts';

/**
 * Sets a temporary password made here and shows it once, to pass on to the user by a trusted channel; the user is
 * signed out everywhere. Nothing keeps it: closing the dialog forgets it.
 */
export function ResetPasswordDialog({
  user,
  onClose,
  onDone,
}: {
  user: AdminUser | null;
  onClose: () => void;
  onDone: (message: string) => void;
}) {
  const reset = useResetPassword();
  const [password] = useResetState(user?.id, () => (user ? temporaryPassword() : ''));
  const [shown, setShown] = useState<{ name: string; password: string } | null>(null);
  return (
    <>
      <ActionDialog
        open={user !== null}
        onOpenChange={(open) => !open && onClose()}
        title={`Reset the password of ${user?.full_name ?? ''}?`}
        description="A new temporary password replaces theirs and they are signed out everywhere. You will see it once."
        confirmLabel="Reset password"
        tone="danger"
        fallback="Failed to reset the password"
        run={async (totp_code) => {
          await reset.mutateAsync({ id: user!.id, temporary_password: password, totp_code });
          setShown({ name: user!.full_name, password });
          return 'Temporary password set; the user was signed out everywhere';
        }}
        onDone={onDone}
      />
      <Modal
        open={shown !== null}
        onOpenChange={(open) => !open && setShown(null)}
        title="Temporary password"
        description={`For ${shown?.name ?? ''}. It is shown only now: copy it and pass it on by a channel you trust.`}
      >
        <p className="mono temp-password">{shown?.password}</p>
        <div className="dialog-actions">
          {shown && <CopyButton text={shown.password} label="Copy password" />}
          <Button onClick={() => setShown(null)}>Done</Button>
        </div>
      </Modal>
    </>
  );
}
