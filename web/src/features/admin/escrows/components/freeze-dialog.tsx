import { Field } from '../../../../components/ui/field.tsx';
import { ActionDialog } from '../../shared/action-dialog.tsx';
import { useResetState } from '../../../../hooks/use-reset-state.ts';
import { useFreezeEscrow } from '../api/freeze-escrow.ts';
import type { AdminEscrow } from '../api/get-escrow.ts';
import { useUnfreezeEscrow } from '../api/unfreeze-escrow.ts';

/** Freeze (nothing moves) or unfreeze (back to where it was), with a reason kept in the log. */
export function FreezeDialog({
  escrow,
  unfreeze,
  onClose,
  onDone,
}: {
  escrow: AdminEscrow | null;
  unfreeze: boolean;
  onClose: () => void;
  onDone: (message: string) => void;
}) {
  const [reason, setReason] = useResetState(escrow?.id, () => '');
  const freezeCall = useFreezeEscrow();
  const unfreezeCall = useUnfreezeEscrow();
  return (
    <ActionDialog
      open={escrow !== null}
      onOpenChange={(open) => !open && onClose()}
      title={unfreeze ? 'Unfreeze this escrow?' : 'Freeze this escrow?'}
      description={
        unfreeze ? 'It goes back to the status it had before.' : 'No one can act on it until it is unfrozen.'
      }
      confirmLabel={unfreeze ? 'Unfreeze' : 'Freeze'}
      tone={unfreeze ? 'primary' : 'danger'}
      fallback={unfreeze ? 'Failed to unfreeze escrow' : 'Failed to freeze escrow'}
      check={() => (reason.trim() ? null : 'Give a reason (it is kept in the log)')}
      run={async (totp_code) => {
        await (unfreeze ? unfreezeCall : freezeCall).mutateAsync({ escrowId: escrow!.id, reason, totp_code });
        return unfreeze ? 'Escrow unfrozen' : 'Escrow frozen';
      }}
      onDone={onDone}
    >
      <Field label="Reason" required>
        <textarea rows={2} value={reason} onChange={(e) => setReason(e.target.value)} maxLength={1000} />
      </Field>
    </ActionDialog>
  );
}
