import { useState } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { Modal } from '../../../components/ui/modal.tsx';
import { useRegenerateRecoveryCodes } from '../../../auth/two-factor-api.ts';
import { CodeFromAppForm } from '../../../components/two-factor/code-from-app-form.tsx';
import { RecoveryCodes } from '../../../components/two-factor/recovery-codes.tsx';

/** "N recovery codes left", in words a person reads. */
export const codesLeftText = (left: number) =>
  left === 0 ? 'No recovery codes left' : `${left} recovery code${left === 1 ? '' : 's'} left`;

/**
 * New recovery codes in a dialog: a current code from the authenticator app, then the new codes, shown once with
 * copy and download as after turning 2FA on. Closing gives focus back to the button that opened it.
 */
export function NewRecoveryCodesDialog({ username }: { username: string }) {
  const [open, setOpen] = useState(false);
  const [codes, setCodes] = useState<string[] | null>(null);
  const regenerate = useRegenerateRecoveryCodes();

  const openChange = (next: boolean) => {
    if (regenerate.isPending) return;
    setOpen(next);
    if (!next) {
      setCodes(null);
      regenerate.reset();
    }
  };

  return (
    <>
      <div>
        <Button variant="secondary" onClick={() => setOpen(true)}>
          New recovery codes
        </Button>
      </div>
      <Modal
        open={open}
        onOpenChange={openChange}
        title="New recovery codes"
        description="Every recovery code you have now stops working, used or not."
      >
        {codes ? (
          <RecoveryCodes
            codes={codes}
            username={username}
            onDone={() => openChange(false)}
            notice="New recovery codes made. The old ones no longer work."
          />
        ) : (
          <CodeFromAppForm
            hint="The 6-digit code your authenticator app shows now (a recovery code cannot make new ones)."
            submitLabel="Make new codes"
            send={(code) => regenerate.mutate(code, { onSuccess: (answer) => setCodes(answer.recovery_codes) })}
            pending={regenerate.isPending}
            error={regenerate.error}
            failure="Failed to make new recovery codes"
            onCancel={() => openChange(false)}
          />
        )}
      </Modal>
    </>
  );
}
