import { type BitcoinNetwork, checkBitcoinAddress } from '../../../../../../domain/bitcoin-address.ts';
import { Field } from '../../../../components/ui/field.tsx';
import { ActionDialog } from '../../shared/action-dialog.tsx';
import { useResetState } from '../../../../hooks/use-reset-state.ts';
import type { PoolAddress } from '../api/get-addresses.ts';
import { useUpdateAddress } from '../api/update-address.ts';

/** Replaces an available address (a typo fixed before anyone was asked to pay to it). */
export function EditAddressDialog({
  address,
  network,
  onClose,
  onDone,
}: {
  address: PoolAddress | null;
  network: BitcoinNetwork | null;
  onClose: () => void;
  onDone: (message: string) => void;
}) {
  const [value, setValue] = useResetState(address?.id, () => address?.address_string ?? '');
  const update = useUpdateAddress();
  const check = () => {
    if (!value.trim()) return 'Enter the new address';
    const checked = network ? checkBitcoinAddress(value, network) : null;
    return checked && !checked.ok ? `This address ${checked.reason}` : null;
  };
  return (
    <ActionDialog
      open={address !== null}
      onOpenChange={(open) => !open && onClose()}
      title="Edit address"
      description="Only an address no escrow has used can be changed."
      confirmLabel="Save address"
      fallback="Failed to update address"
      check={check}
      run={async (totp_code) => {
        await update.mutateAsync({ id: address!.id, address_string: value.trim(), totp_code });
        return 'Address updated';
      }}
      onDone={onDone}
    >
      <Field label="Address">
        <input
          className="mono"
          value={value}
          onChange={(e) => setValue(e.target.value)}
          spellCheck={false}
          autoComplete="off"
        />
      </Field>
    </ActionDialog>
  );
}
