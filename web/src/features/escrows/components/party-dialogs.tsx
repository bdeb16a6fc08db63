import type { UseMutationResult } from '@tanstack/react-query';
import { messageOf } from '../../../api/client.ts';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { formatBtc } from '../../../lib/format.ts';
import { useCancelEscrow } from '../api/cancel-escrow.ts';
import { useConfirmReceipt } from '../api/confirm-receipt.ts';
import { useDecline } from '../api/decline.ts';
import { useOpenDispute } from '../api/open-dispute.ts';
import { useReceive } from '../api/receive.ts';
import type { Escrow } from '../api/types.ts';
import { AddressDialog } from './address-dialog.tsx';
import { MarkPaidDialog } from './mark-paid-dialog.tsx';
import { PaymentDialog } from './payment-dialog.tsx';
import { ProposeDialog } from './propose-dialog.tsx';
import { ReasonDialog } from './reason-dialog.tsx';
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
export function PartyDialogs({
  escrow,
  dialog,
  totpEnabled,
  canMarkPaid,
  onOpen,
  onClose,
  onNotice,
}: PartyDialogsProps) {
  const confirmReceipt = useConfirmReceipt(escrow.id);
  const receive = useReceive(escrow.id);
  const cancel = useCancelEscrow(escrow.id);
  const openDispute = useOpenDispute(escrow.id);
  const decline = useDecline(escrow.id);
  // Money already sent turns a decline into a refund the admins execute.
  const paid = escrow.payment_marked_at !== null || escrow.funded_at !== null;
  const closeWith = (notice: string) => () => {
    onClose();
    onNotice(notice);
  };
  const onOpenChange = (open: boolean) => !open && onClose();
  /**
   * A step confirmed in one click: busy while it runs, its failure in the dialog (forgotten when the dialog closes,
   * not shown on its next opening), what it says when done.
   */
  const confirmStep = (step: UseMutationResult<unknown, Error, void>, failure: string, notice: string) => ({
    onOpenChange: (open: boolean) => {
      if (open) return;
      step.reset();
      onClose();
    },
    busy: step.isPending,
    error: step.isError ? messageOf(step.error, failure) : null,
    onConfirm: () => step.mutate(undefined, { onSuccess: closeWith(notice) }),
  });
  return (
    <>
      {dialog === 'payment' && (
        <PaymentDialog
          escrow={escrow}
          open
          onOpenChange={onOpenChange}
          onMarkPaid={canMarkPaid ? () => onOpen('mark_paid') : undefined}
        />
      )}
      {dialog === 'mark_paid' && (
        <MarkPaidDialog
          escrow={escrow}
          open
          onOpenChange={onOpenChange}
          onDone={closeWith('Payment marked! Awaiting admin verification.')}
        />
      )}
      {dialog === 'address' && (
        <AddressDialog
          escrow={escrow}
          totpEnabled={totpEnabled}
          open
          onOpenChange={onOpenChange}
          onDone={closeWith(escrow.side === 'seller' ? 'Payout address saved.' : 'Refund address saved.')}
        />
      )}
      {dialog === 'dispute' && (
        <ReasonDialog
          step={openDispute}
          title="Open Dispute"
          description="An admin reviews the dispute and decides: release to the seller, refund to the buyer, or a split."
          hint="What went wrong, and what you expect."
          maxLength={5000}
          missing="Please give the reason for the dispute"
          failure="Failed to open dispute"
          submitLabel="Open Dispute"
          cancelLabel="Cancel"
          onOpenChange={onOpenChange}
          onDone={closeWith('Dispute opened. An admin will review it.')}
        />
      )}
      {dialog === 'decline' && (
        <ReasonDialog
          step={decline}
          title="Decline the terms"
          description={
            paid
              ? 'The buyer has already paid: declining asks the admins to refund the money to the buyer.'
              : 'Declining cancels the escrow for both of you. Nobody should pay to its address afterwards.'
          }
          hint="What you cannot accept: the other party reads this."
          maxLength={1000}
          missing="Please give the reason for declining"
          failure="Failed to decline"
          submitLabel="Decline"
          cancelLabel="Keep it"
          onOpenChange={onOpenChange}
          onDone={closeWith('You declined the terms.')}
        />
      )}
      {dialog === 'ship' && (
        <ShipDialog
          escrowId={escrow.id}
          open
          onOpenChange={onOpenChange}
          onDone={closeWith('Shipment recorded. The buyer has been told.')}
        />
      )}
      {dialog === 'propose' && (
        <ProposeDialog
          escrow={escrow}
          open
          onOpenChange={onOpenChange}
          onDone={closeWith('Proposal sent. The other party has been told.')}
        />
      )}
      <ConfirmDialog
        open={dialog === 'receive'}
        title="Mark as received"
        description={
          (escrow.inspection_days ?? 0) > 0
            ? `You then have ${days(escrow.inspection_days ?? 0)} to inspect it: accept it, or open a dispute. If you do neither, it is accepted when the period ends.`
            : 'This escrow has no inspection period: marking it received accepts it.'
        }
        confirmLabel="Mark as received"
        {...confirmStep(
          receive,
          'Failed to mark as received',
          'Marked as received. The inspection period has started.',
        )}
      />
      <ConfirmDialog
        open={dialog === 'confirm_receipt'}
        title="Confirm Receipt"
        description="Confirm only once you have what you paid for: this accepts the goods, and an admin then releases the money to the seller."
        confirmLabel="Confirm Receipt"
        {...confirmStep(
          confirmReceipt,
          'Failed to confirm receipt',
          'Receipt confirmed. An admin will release the money to the seller.',
        )}
      >
        <p>
          {formatBtc(escrow.amount_sats)} for "{escrow.product_service}".
        </p>
      </ConfirmDialog>
      <ConfirmDialog
        open={dialog === 'cancel'}
        title="Cancel this escrow?"
        description="The escrow is closed for both parties and cannot be reopened. Nobody should send money to its address after this."
        confirmLabel="Cancel escrow"
        cancelLabel="Keep it"
        tone="danger"
        {...confirmStep(cancel, 'Failed to cancel escrow', 'The escrow is cancelled.')}
      />
    </>
  );
}
