import { ActionDialog } from '../../shared/action-dialog.tsx';
import { useDeleteAddress } from '../api/delete-address.ts';
import type { PoolAddress } from '../api/get-addresses.ts';

/** Removes an available address from the pool, after a confirmation naming it. */
export function DeleteAddressDialog({
  address,
  onClose,
  onDone,
}: {
  address: PoolAddress | null;
  onClose: () => void;
  onDone: (message: string) => void;
}) {
  const remove = useDeleteAddress();
  return (
    <ActionDialog
      open={address !== null}
      onOpenChange={(open) => !open && onClose()}
      title="Delete this address?"
      description="It leaves the pool and is never handed out; its history stays in the log."
      confirmLabel="Delete address"
      tone="danger"
      fallback="Failed to delete address"
      run={async (totp_code) => {
        await remove.mutateAsync({ id: address!.id, totp_code });
        return 'Address deleted';
      }}
      onDone={onDone}
    >
      <p className="mono break">{address?.address_string}</p>
    </ActionDialog>
  );
}
