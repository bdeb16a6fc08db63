import { messageOf } from '../../../api/client.ts';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { formatBtc } from '../../../lib/format.ts';
import { useCancelEscrow } from '../api/cancel-escrow.ts';
import { useConfirmReceipt } from '../api/confirm-receipt.ts';
import { useReceive } from '../api/receive.ts';
import type { Escrow } from '../api/types.ts';
import { AddressDialog } from './address-dialog.tsx';
import { DeclineDialog } from './decline-dialog.tsx';
import { DisputeDialog } from './dispute-dialog.tsx';
import { MarkPaidDialog } from './mark-paid-dialog.tsx';
import { PaymentDialog } from './payment-dialog.tsx';
import { ProposeDialog } from './propose-dialog.tsx';
import { ShipDialog } from './ship-dialog.tsx';

export type PartyDialog =
  | 'payment'
  | 'mark_paid'
  | 'address'
  | 'dispute'
  | 'decline'
  | 'ship'
  | 'receive'
  | 'confirm_receipt'
  | 'cancel'
  | 'propose';

interface PartyDialogsProps {
  escrow: Escrow;
  dialog: PartyDialog | null;
  totpEnabled: boolean;
  /** Whether the payment dialog offers "I have paid: Mark as Paid" (the server allows marking now). */
  canMarkPaid: boolean;
  onOpen: (dialog: PartyDialog) => void;
  onClose: () => void;
  onNotice: (text: string) => void;
}

const days = (n: number) => `${n} ${n === 1 ? 'day' : 'days'}`;

/** The dialog of the action the party chose, and what it says when done. */
export function PartyDialogs({ escrow, dialog, totpEnabled, canMarkPaid, onOpen, onClose, onNotice }: PartyDialogsProps) {
  const confirmReceipt = useConfirmReceipt(escrow.id);
  const receive = useReceive(escrow.id);
  const cancel = useCancelEscrow(escrow.id);
  const closeWith = (notice: string) => () => {
    onClose();
    onNotice(notice);
  };
  const onOpenChange = (open: boolean) => !open && onClose();
  return (
    <>
      {dialog === 'payment' && <PaymentDialog escrow={escrow} open onOpenChange={onOpenChange} onMarkPaid={canMarkPaid ? () => onOpen('mark_paid') : undefined} />}
      {dialog === 'mark_paid' && <MarkPaidDialog escrow={escrow} open onOpenChange={onOpenChange} onDone={closeWith('Payment marked! Awaiting admin verification.')} />}
      {dialog === 'address' && (
        <AddressDialog
          escrow={escrow}
          totpEnabled={totpEnabled}
          open
          onOpenChange={onOpenChange}
          onDone={closeWith(escrow.side === 'seller' ? 'Payout address saved.' : 'Refund address saved.')}
        />
      )}
      {dialog === 'dispute' && <DisputeDialog escrowId={escrow.id} open onOpenChange={onOpenChange} onDone={closeWith('Dispute opened. An admin will review it.')} />}
      {dialog === 'decline' && (
        <DeclineDialog escrowId={escrow.id} paid={escrow.payment_marked_at !== null || escrow.funded_at !== null} open onOpenChange={onOpenChange} onDone={closeWith('You declined the terms.')} />
      )}
      {dialog === 'ship' && <ShipDialog escrowId={escrow.id} open onOpenChange={onOpenChange} onDone={closeWith('Shipment recorded. The buyer has been told.')} />}
      {dialog === 'propose' && <ProposeDialog escrow={escrow} open onOpenChange={onOpenChange} onDone={closeWith('Proposal sent. The other party has been told.')} />}
      <ConfirmDialog
        open={dialog === 'receive'}
        onOpenChange={onOpenChange}
        title="Mark as received"
        description={
          (escrow.inspection_days ?? 0) > 0
            ? `You then have ${days(escrow.inspection_days ?? 0)} to inspect it: accept it, or open a dispute. If you do neither, it is accepted when the period ends.`
            : 'This escrow has no inspection period: marking it received accepts it.'
        }
        confirmLabel="Mark as received"
        busy={receive.isPending}
        error={receive.isError ? messageOf(receive.error, 'Failed to mark as received') : null}
        onConfirm={() => receive.mutate(undefined, { onSuccess: closeWith('Marked as received. The inspection period has started.') })}
      />
      <ConfirmDialog
        open={dialog === 'confirm_receipt'}
        onOpenChange={onOpenChange}
        title="Confirm Receipt"
        description="Confirm only once you have what you paid for: this accepts the goods, and an admin then releases the money to the seller."
        confirmLabel="Confirm Receipt"
        busy={confirmReceipt.isPending}
        error={confirmReceipt.isError ? messageOf(confirmReceipt.error, 'Failed to confirm receipt') : null}
        onConfirm={() => confirmReceipt.mutate(undefined, { onSuccess: closeWith('Receipt confirmed. An admin will release the money to the seller.') })}
      >
        <p>
          {formatBtc(escrow.amount_sats)} for "{escrow.product_service}".
        </p>
      </ConfirmDialog>
      <ConfirmDialog
        open={dialog === 'cancel'}
        onOpenChange={onOpenChange}
        title="Cancel this escrow?"
        description="The escrow is closed for both parties and cannot be reopened. Nobody should send money to its address after this."
        confirmLabel="Cancel escrow"
        cancelLabel="Keep it"
        tone="danger"
        busy={cancel.isPending}
        error={cancel.isError ? messageOf(cancel.error, 'Failed to cancel escrow') : null}
        onConfirm={() => cancel.mutate(undefined, { onSuccess: closeWith('The escrow is cancelled.') })}
      />
    </>
  );
}
