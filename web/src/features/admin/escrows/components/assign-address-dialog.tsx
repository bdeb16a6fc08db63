import { Field } from '../../../../components/ui/field.tsx';
import { useAddresses } from '../../addresses/api/get-addresses.ts';
import { ActionDialog } from '../../shared/action-dialog.tsx';
import { useResetState } from '../../../../hooks/use-reset-state.ts';
import { useAssignAddress } from '../api/assign-address.ts';
import type { AdminEscrow } from '../api/get-escrow.ts';

/** Gives a waiting escrow one of the available pool addresses. */
export function AssignAddressDialog({
  escrow,
  onClose,
  onDone,
}: {
  escrow: AdminEscrow | null;
  onClose: () => void;
  onDone: (message: string) => void;
}) {
  const addresses = useAddresses();
  const free = (addresses.data ?? []).filter((a) => a.status === 'available');
  const [addressId, setAddressId] = useResetState(escrow?.id, () => '');
  const assign = useAssignAddress();
  const chosen = addressId || free[0]?.id || '';
  return (
    <ActionDialog
      open={escrow !== null}
      onOpenChange={(open) => !open && onClose()}
      title="Assign a payment address"
      description="The buyer is asked to pay to this address."
      confirmLabel="Assign address"
      fallback="Failed to assign address"
      check={() => (chosen ? null : 'No address is free: add one on the Addresses tab first')}
      run={async (totp_code) => {
        await assign.mutateAsync({ escrowId: escrow!.id, address_id: chosen, totp_code });
        return 'Address assigned';
      }}
      onDone={onDone}
    >
      {free.length === 0 ? (
        <p className="warning">No address is free. Add one on the Addresses tab first.</p>
      ) : (
        <Field label="Available address">
          <select className="mono" value={chosen} onChange={(e) => setAddressId(e.target.value)}>
            {free.map((a) => (
              <option key={a.id} value={a.id}>
                {a.address_string}
              </option>
            ))}
          </select>
        </Field>
      )}
    </ActionDialog>
  );
}
