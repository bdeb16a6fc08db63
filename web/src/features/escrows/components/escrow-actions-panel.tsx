import { useState } from 'react';
import { messageOf } from '../../../api/client.ts';
import { Button } from '../../../components/ui/button.tsx';
import { useAgree } from '../api/agree.ts';
import { useRequestPayment } from '../api/request-payment.ts';
import type { Escrow } from '../api/types.ts';
import { Message } from '../../../components/ui/message.tsx';
import { nextAction, type PageAction, pageActions } from '../model/party-actions.ts';
import { type PartyDialog, PartyDialogs } from './party-dialogs.tsx';

const LABELS: Partial<Record<PageAction, string>> = {
  agree: 'Agree to the terms',
  agree_and_pay: 'Agree and pay',
  decline: 'Decline',
  request_payment: 'Make Payment',
  mark_paid: 'Mark as Paid',
  show_payment: 'Payment information',
  ship: 'Record shipment',
  receive: 'Mark as received',
  confirm_receipt: 'Confirm Receipt',
  set_payout_address: 'Set payout address',
  set_refund_address: 'Set refund address',
  open_dispute: 'Open Dispute',
  cancel: 'Cancel escrow',
  propose: 'Propose a settlement',
};

/** The dialog each button opens; the ones missing act at once. */
const DIALOG_OF: Partial<Record<PageAction, PartyDialog>> = {
  decline: 'decline',
  mark_paid: 'mark_paid',
  show_payment: 'payment',
  ship: 'ship',
  receive: 'receive',
  confirm_receipt: 'confirm_receipt',
  set_payout_address: 'address',
  set_refund_address: 'address',
  open_dispute: 'dispute',
  cancel: 'cancel',
  propose: 'propose',
};
const QUIET: ReadonlySet<PageAction> = new Set(['decline', 'open_dispute', 'cancel']);

interface PanelProps {
  escrow: Escrow;
  totpEnabled: boolean;
  /** Open the payment dialog at once (a buyer's new escrow with an address). */
  startWithPayment: boolean;
  onPaymentShown: () => void;
  onNotice: (text: string) => void;
}

/** The buttons for exactly the actions the server allows this user now, the next step first, and their dialogs. */
export function EscrowActionsPanel({ escrow, totpEnabled, startWithPayment, onPaymentShown, onNotice }: PanelProps) {
  const [dialog, setDialog] = useState<PartyDialog | null>(
    startWithPayment && escrow.assigned_address ? 'payment' : null,
  );
  const requestPayment = useRequestPayment(escrow.id);
  const agree = useAgree(escrow.id);
  const actions = pageActions(escrow);
  const next = nextAction(escrow);
  const close = () => {
    if (dialog === 'payment') onPaymentShown();
    setDialog(null);
  };
  const label = (action: PageAction) =>
    action === 'set_payout_address' && escrow.payout_address
      ? 'Change payout address'
      : action === 'set_refund_address' && escrow.refund_address
        ? 'Change refund address'
        : (LABELS[action] ?? action);

  const run = (action: PageAction) => {
    const opens = DIALOG_OF[action];
    if (opens) return setDialog(opens);
    if (action === 'request_payment')
      return requestPayment.mutate(undefined, { onSuccess: () => setDialog('payment') });
    if (action === 'agree') return agree.mutate(undefined, { onSuccess: () => onNotice('You agreed to the terms.') });
    if (action === 'agree_and_pay') {
      return agree.mutate(undefined, {
        onSuccess: () => requestPayment.mutate(undefined, { onSuccess: () => setDialog('payment') }),
      });
    }
    return undefined;
  };

  // A dialog whose step leaves no action (a decline, a cancel) stays mounted until it closes, so that what it says
  // when done is still said.
  if (actions.length === 0 && dialog === null) return null;
  const failure = agree.error ?? (requestPayment.isError && !escrow.assigned_address ? requestPayment.error : null);
  return (
    <div className="escrow-actions">
      {/* "No payment address is free" holds only until an address is given (by an admin, or on asking again). */}
      {failure && (
        <Message tone="error">
          {messageOf(failure, agree.error ? 'Failed to agree to the terms' : 'Failed to request payment address')}
        </Message>
      )}
      <div className="actions">
        {actions.map((action) => (
          <Button
            key={action}
            variant={QUIET.has(action) ? 'ghost' : action === next ? 'primary' : 'secondary'}
            busy={
              (action === 'request_payment' && requestPayment.isPending) ||
              ((action === 'agree' || action === 'agree_and_pay') && (agree.isPending || requestPayment.isPending))
            }
            onClick={() => run(action)}
          >
            {label(action)}
          </Button>
        ))}
      </div>
      <PartyDialogs
        escrow={escrow}
        dialog={dialog}
        totpEnabled={totpEnabled}
        canMarkPaid={actions.includes('mark_paid')}
        onOpen={setDialog}
        onClose={close}
        onNotice={onNotice}
      />
    </div>
  );
}
