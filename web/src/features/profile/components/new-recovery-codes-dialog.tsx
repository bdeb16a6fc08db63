import { useState } from 'react';
import { messageOf } from '../../../api/client.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Message } from '../../../components/ui/message.tsx';
import { Modal } from '../../../components/ui/modal.tsx';
import { TotpField } from '../../../components/ui/totp-field.tsx';
import { useRegenerateRecoveryCodes } from '../../../auth/two-factor-api.ts';
import { RecoveryCodes } from './recovery-codes.tsx';

/** "N recovery codes left", in words a person reads. */
export const codesLeftText = (left: number) =>
  left === 0 ? 'No recovery codes left' : `${left} recovery code${left === 1 ? '' : 's'} left`;

/**
 * New recovery codes in a dialog: a current code from the authenticator app, then the new codes, shown once with
 * copy and download as after turning 2FA on. Closing gives focus back to the button that opened it.
 */
export function NewRecoveryCodesDialog({ username }: { username: string }) {
  const [open, setOpen] = useState(false);
  const [code, setCode] = useState('');
  const [missing, setMissing] = useState(false);
  const [codes, setCodes] = useState<string[] | null>(null);
  const regenerate = useRegenerateRecoveryCodes();

  const openChange = (next: boolean) => {
    if (regenerate.isPending) return;
    setOpen(next);
    if (!next) {
      setCode('');
      setMissing(false);
      setCodes(null);
      regenerate.reset();
    }
  };
  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    if (!code) return setMissing(true);
    setMissing(false);
    regenerate.mutate(code, { onSuccess: (answer) => setCodes(answer.recovery_codes) });
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
          <form className="form" onSubmit={submit} noValidate>
            <TotpField
              value={code}
              onChange={setCode}
              required
              label="Code from the app"
              hint="The 6-digit code your authenticator app shows now (a recovery code cannot make new ones)."
              error={missing ? 'Enter the code from your authenticator app' : undefined}
            />
            {regenerate.isError && (
              <Message tone="error">{messageOf(regenerate.error, 'Failed to make new recovery codes')}</Message>
            )}
            <div className="button-row">
              <Button type="submit" busy={regenerate.isPending}>
                Make new codes
              </Button>
              <Button variant="ghost" onClick={() => openChange(false)} disabled={regenerate.isPending}>
                Cancel
              </Button>
            </div>
          </form>
        )}
      </Modal>
    </>
  );
}
