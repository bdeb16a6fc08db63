import { useState } from 'react';
import { messageOf } from '../../../api/client.ts';
import { Button } from '../../../components/ui/button.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { Message } from '../../../components/ui/message.tsx';
import { formatBtc } from '../../../lib/format.ts';
import { useCancelEscrow } from '../api/cancel-escrow.ts';
import { useConfirmReceipt } from '../api/confirm-receipt.ts';
import { useRequestPayment } from '../api/request-payment.ts';
import type { Escrow } from '../api/types.ts';
import type { EscrowAction } from '../model/escrow-actions.ts';
import { AddressDialog } from './address-dialog.tsx';
import { DisputeDialog } from './dispute-dialog.tsx';
import { MarkPaidDialog } from './mark-paid-dialog.tsx';
import { PaymentDialog } from './payment-dialog.tsx';

type Dialog = 'payment' | 'mark_paid' | 'address' | 'dispute' | 'confirm_receipt' | 'cancel' | null;

const LABELS: Record<EscrowAction, string> = {
  make_payment: 'Make Payment',
  mark_paid: 'Mark as Paid',
  confirm_receipt: 'Confirm Receipt',
  show_payment: 'Payment information',
  set_payout_address: 'Set payout address',
  set_refund_address: 'Set refund address',
  open_dispute: 'Open Dispute',
  cancel: 'Cancel escrow',
};

interface PanelProps {
  escrow: Escrow;
  actions: EscrowAction[];
  /** Whether the first action is this user's next step (styled as the primary button), or only something they may do. */
  waitsOnMe: boolean;
  totpEnabled: boolean;
  /** Open the payment dialog at once (a buyer's new escrow with an address). */
  startWithPayment: boolean;
  onPaymentShown: () => void;
  onNotice: (text: string) => void;
}

/** The buttons for exactly the actions offered, the next step first, and the dialog each one opens. */
export function EscrowActionsPanel({ escrow, actions, waitsOnMe, totpEnabled, startWithPayment, onPaymentShown, onNotice }: PanelProps) {
  const [dialog, setDialog] = useState<Dialog>(startWithPayment && escrow.assigned_address ? 'payment' : null);
  const requestPayment = useRequestPayment(escrow.id);
  const confirmReceipt = useConfirmReceipt(escrow.id);
  const cancel = useCancelEscrow(escrow.id);
  const close = () => {
    if (dialog === 'payment') onPaymentShown();
    setDialog(null);
  };
  const label = (action: EscrowAction) => (action === 'set_payout_address' && escrow.payout_address ? 'Change payout address' : action === 'set_refund_address' && escrow.refund_address ? 'Change refund address' : LABELS[action]);

  const run = (action: EscrowAction) => {
    switch (action) {
      case 'make_payment':
        return requestPayment.mutate(undefined, { onSuccess: () => setDialog('payment') });
      case 'mark_paid':
        return setDialog('mark_paid');
      case 'confirm_receipt':
        return setDialog('confirm_receipt');
      case 'show_payment':
        return setDialog('payment');
      case 'set_payout_address':
      case 'set_refund_address':
        return setDialog('address');
      case 'open_dispute':
        return setDialog('dispute');
      case 'cancel':
        return setDialog('cancel');
      default: {
        const unknown: never = action;
        return unknown;
      }
    }
  };

  if (actions.length === 0) return null;
  return (
    <div className="escrow-actions">
      {/* "No payment address is free" holds only until an address is given (by an admin, or on asking again). */}
      {requestPayment.isError && !escrow.assigned_address && <Message tone="error">{messageOf(requestPayment.error, 'Failed to request payment address')}</Message>}
      <div className="actions">
        {actions.map((action, index) => (
          <Button
            key={action}
            variant={action === 'open_dispute' || action === 'cancel' ? 'ghost' : index === 0 && waitsOnMe ? 'primary' : 'secondary'}
            busy={action === 'make_payment' && requestPayment.isPending}
            onClick={() => run(action)}
          >
            {label(action)}
          </Button>
        ))}
      </div>
      {dialog === 'payment' && (
        <PaymentDialog
          escrow={escrow}
          open
          onOpenChange={(open) => !open && close()}
          onMarkPaid={actions.includes('mark_paid') ? () => setDialog('mark_paid') : undefined}
        />
      )}
      {dialog === 'mark_paid' && (
        <MarkPaidDialog
          escrow={escrow}
          open
          onOpenChange={(open) => !open && close()}
          onDone={() => {
            close();
            onNotice('Payment marked! Awaiting admin verification.');
          }}
        />
      )}
      {dialog === 'address' && (
        <AddressDialog
          escrow={escrow}
          totpEnabled={totpEnabled}
          open
          onOpenChange={(open) => !open && close()}
          onDone={() => {
            close();
            onNotice(escrow.side === 'seller' ? 'Payout address saved.' : 'Refund address saved.');
          }}
        />
      )}
      {dialog === 'dispute' && (
        <DisputeDialog
          escrowId={escrow.id}
          open
          onOpenChange={(open) => !open && close()}
          onDone={() => {
            close();
            onNotice('Dispute opened. An admin will review it.');
          }}
        />
      )}
      <ConfirmDialog
        open={dialog === 'confirm_receipt'}
        onOpenChange={(open) => !open && close()}
        title="Confirm Receipt"
        description="Confirm only once you have what you paid for: an admin then releases the money to the seller."
        confirmLabel="Confirm Receipt"
        busy={confirmReceipt.isPending}
        error={confirmReceipt.isError ? messageOf(confirmReceipt.error, 'Failed to confirm receipt') : null}
        onConfirm={() =>
          confirmReceipt.mutate(undefined, {
            onSuccess: () => {
              close();
              onNotice('Receipt confirmed. An admin will release the money to the seller.');
            },
          })
        }
      >
        <p>
          {formatBtc(escrow.amount_sats)} for "{escrow.product_service}".
        </p>
      </ConfirmDialog>
      <ConfirmDialog
        open={dialog === 'cancel'}
        onOpenChange={(open) => !open && close()}
        title="Cancel this escrow?"
        description="The escrow is closed for both parties and cannot be reopened. Nobody should send money to its address after this."
        confirmLabel="Cancel escrow"
        cancelLabel="Keep it"
        tone="danger"
        busy={cancel.isPending}
        error={cancel.isError ? messageOf(cancel.error, 'Failed to cancel escrow') : null}
        onConfirm={() =>
          cancel.mutate(undefined, {
            onSuccess: () => {
              close();
              onNotice('The escrow is cancelled.');
            },
          })
        }
      />
    </div>
  );
}
