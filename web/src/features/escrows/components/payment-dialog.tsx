import { formatSats } from '../../../../../domain/money.ts';
import { Button } from '../../../components/ui/button.tsx';
import { CopyButton } from '../../../components/ui/copy-button.tsx';
import { Modal } from '../../../components/ui/modal.tsx';
import { formatBtc, formatDateTime, formatUsd } from '../../../lib/format.ts';
import type { Escrow } from '../api/types.ts';
import { sellerNotAgreedNote } from '../model/seller-agreement.ts';
import { QrCode } from './qr-code.tsx';

/** BIP21: the address and the exact amount, so a wallet that scans it fills both in. */
export const paymentUri = (address: string, sats: number) => `bitcoin:${address}?amount=${formatSats(sats)}`;

interface PaymentDialogProps {
  escrow: Pick<
    Escrow,
    | 'assigned_address'
    | 'amount_sats'
    | 'total_usd'
    | 'payment_due_at'
    | 'product_service'
    | 'side'
    | 'creator_side'
    | 'agreed_at'
    | 'declined_at'
  >;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Offered when the buyer may mark the payment now. */
  onMarkPaid?: (() => void) | undefined;
}

/** Where and how much to pay: the address, a QR code of both, the exact BTC amount, the USD total and the deadline. */
export function PaymentDialog({ escrow, open, onOpenChange, onMarkPaid }: PaymentDialogProps) {
  const address = escrow.assigned_address;
  const notAgreed = sellerNotAgreedNote(escrow);
  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      title="Payment information"
      description={`Pay for "${escrow.product_service}" from any Bitcoin wallet.`}
    >
      {address ? (
        <div className="payment">
          <QrCode
            text={paymentUri(address, escrow.amount_sats)}
            label={`QR code: pay ${formatBtc(escrow.amount_sats)} to ${address}`}
          />
          <dl className="payment-facts">
            <div>
              <dt>Send exactly</dt>
              <dd>
                <span className="payment-amount mono">{formatBtc(escrow.amount_sats)}</span>
                <CopyButton text={formatSats(escrow.amount_sats)} label="Copy amount" />
              </dd>
            </div>
            <div>
              <dt>To this address</dt>
              <dd>
                <span className="payment-address mono">{address}</span>
                <CopyButton text={address} label="Copy address" />
              </dd>
            </div>
            <div>
              <dt>Total in USD (fee included)</dt>
              <dd>{formatUsd(escrow.total_usd)}</dd>
            </div>
            <div>
              <dt>Pay by</dt>
              <dd>{formatDateTime(escrow.payment_due_at)}</dd>
            </div>
          </dl>
          <p className="small muted">
            Send the whole amount in one payment. Then mark it as paid, so an admin checks it on the chain.
          </p>
          {notAgreed && <p className="small">{notAgreed}</p>}
          <div className="dialog-actions">
            <Button variant="secondary" onClick={() => onOpenChange(false)}>
              Close
            </Button>
            {onMarkPaid && <Button onClick={onMarkPaid}>I have paid: Mark as Paid</Button>}
          </div>
        </div>
      ) : (
        <p>No payment address is assigned yet.</p>
      )}
    </Modal>
  );
}
