import { ArrowLeft } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { ConversationPanel } from '../../../../components/conversation/conversation-panel.tsx';
import { Button } from '../../../../components/ui/button.tsx';
import { CopyButton } from '../../../../components/ui/copy-button.tsx';
import { QueryState } from '../../../../components/ui/query-state.tsx';
import { EscrowStatusBadge } from '../../../../components/ui/escrow-status-badge.tsx';
import { useClockChange } from '../../../../hooks/use-clock-change.ts';
import { addressHoldText } from '../../../../lib/address-hold.ts';
import { agreedSettlement } from '../../../../lib/escrow-split.ts';
import { formatBtc, formatDateTime, formatUsd } from '../../../../lib/format.ts';
import { paymentCheckText } from '../../../../lib/payment-check.ts';
import { type AdminEscrow, useEscrow } from '../api/get-escrow.ts';
import { AssignAddressDialog } from './assign-address-dialog.tsx';
import { CancelDialog } from './cancel-dialog.tsx';
import { EscrowHistory } from './escrow-history.tsx';
import { FreezeDialog } from './freeze-dialog.tsx';
import { MoneyDialog } from './money-dialog.tsx';
import { SettleDialog } from './settle-dialog.tsx';
import { EmailAddress } from '../../../../components/ui/email-address.tsx';

/** The console's powers on one escrow, offered exactly when the escrow's answer allows them (contract 7.7). */
const POWERS = ['assign_address', 'release', 'refund', 'cancel', 'freeze', 'unfreeze'] as const;
type EscrowPower = (typeof POWERS)[number];
const LABELS: Record<EscrowPower, string> = {
  assign_address: 'Assign address',
  release: 'Release',
  refund: 'Refund',
  cancel: 'Cancel escrow',
  freeze: 'Freeze',
  unfreeze: 'Unfreeze',
};
const PRIMARY: ReadonlySet<EscrowPower> = new Set(['release', 'assign_address', 'unfreeze']);

function Address({
  label,
  value,
  proven = false,
  heldUntil = null,
}: {
  label: string;
  value: string | null;
  proven?: boolean;
  heldUntil?: string | null;
}) {
  const hold = addressHoldText(heldUntil);
  return (
    <>
      <dt>{label}</dt>
      <dd className="address-line">
        {value ? (
          <>
            <span className="mono break">{value}</span>
            {proven && <span className="small">proven by its signature</span>}
            <CopyButton text={value} label="Copy" variant="ghost" />
            {hold && <span className="warning">{hold}</span>}
          </>
        ) : (
          <span className="muted">not set</span>
        )}
      </dd>
    </>
  );
}

function Facts({ escrow }: { escrow: AdminEscrow }) {
  return (
    <dl className="facts">
      <dt>Amount</dt>
      <dd>
        {formatUsd(escrow.amount_usd)} + fee {formatUsd(escrow.escrow_fee)} ({escrow.fee_percentage}%) ={' '}
        <strong>{formatUsd(escrow.total_usd)}</strong> ={' '}
        <strong className="mono">{formatBtc(escrow.amount_sats)}</strong> at {formatUsd(escrow.btc_usd_rate)}/BTC
      </dd>
      <dt>Buyer</dt>
      <dd className="break">
        <EmailAddress value={escrow.buyer_email} />
      </dd>
      <dt>Seller</dt>
      <dd className="break">
        <EmailAddress value={escrow.seller_email} />
      </dd>
      <dt>Opened</dt>
      <dd>
        {formatDateTime(escrow.created_at)} by the {escrow.creator_side}
        {escrow.payment_due_at &&
          escrow.status === 'pending_payment' &&
          `; payment due ${formatDateTime(escrow.payment_due_at)}`}
      </dd>
      <Address label="Payment address" value={escrow.assigned_address} />
      {escrow.payment_marked_at && (
        <>
          <dt>Payment marked</dt>
          <dd>{formatDateTime(escrow.payment_marked_at)}</dd>
        </>
      )}
      {escrow.buyer_confirmed_at && (
        <>
          <dt>Receipt confirmed</dt>
          <dd>{formatDateTime(escrow.buyer_confirmed_at)}</dd>
        </>
      )}
      <Address
        label="Seller's payout address"
        value={escrow.payout_address}
        proven={escrow.payout_address_proven}
        heldUntil={escrow.payout_address_held_until}
      />
      <Address
        label="Buyer's refund address"
        value={escrow.refund_address}
        proven={escrow.refund_address_proven}
        heldUntil={escrow.refund_address_held_until}
      />
      {escrow.funded_at && (
        <>
          <dt>Payment checked</dt>
          <dd className="break">{paymentCheckText(escrow)}</dd>
        </>
      )}
      {escrow.payment_txid && (
        <>
          <dt>Payment txid</dt>
          <dd className="mono break">{escrow.payment_txid}</dd>
        </>
      )}
      {escrow.payout_txid && (
        <>
          <dt>Payout txid</dt>
          <dd className="mono break">{escrow.payout_txid}</dd>
        </>
      )}
      {escrow.seller_sats !== null && (
        <>
          <dt>Paid out</dt>
          <dd className="mono">
            seller {formatBtc(escrow.seller_sats)}, buyer {formatBtc(escrow.buyer_sats ?? 0)}, fee{' '}
            {formatBtc(escrow.fee_sats ?? 0)}
          </dd>
        </>
      )}
    </dl>
  );
}

/** One escrow in the console: its facts, the admin's powers on it now, and its history. */
export function EscrowDetail({ escrowId, onDone }: { escrowId: string; onDone: (message: string) => void }) {
  const escrow = useEscrow(escrowId);
  useClockChange(escrow.data, () => void escrow.refetch());
  const [open, setOpen] = useState<EscrowPower | 'settle' | null>(null);
  const target = (power: EscrowPower | 'settle') => (open === power ? (escrow.data ?? null) : null);
  const close = () => setOpen(null);
  return (
    <div className="card escrow-detail">
      <Link to="/admin?tab=escrows" className="back-link">
        <ArrowLeft size={16} aria-hidden="true" /> All escrows
      </Link>
      <QueryState query={escrow} errorFallback="Failed to load the escrow">
        {(e) => (
          <>
            <div className="verification-head">
              <h3>{e.product_service}</h3>
              <EscrowStatusBadge escrow={e} />
            </div>
            <p className="small muted mono break">Escrow {e.id}</p>
            <p>{e.description}</p>
            <Facts escrow={e} />
            {e.allowed_actions.includes('verify_payment') && (
              <p className="small">
                The buyer marked the payment:{' '}
                <Link to="/admin?tab=verifications">verify it on the Verifications tab</Link>.
              </p>
            )}
            {e.allowed_actions.includes('resolve') && e.status === 'disputed' && (
              <p className="small">
                In dispute: <Link to="/admin?tab=disputes">resolve it on the Disputes tab</Link>.
              </p>
            )}
            {e.status !== 'disputed' && agreedSettlement(e) && (
              <p className="small">
                Both parties agreed to{' '}
                {agreedSettlement(e)!.kind === 'split'
                  ? `a split, ${agreedSettlement(e)!.seller_percent}% to the seller`
                  : 'a full refund'}
                : pay it out as agreed, no dispute needed.
              </p>
            )}
            <div className="row-actions">
              {e.status !== 'disputed' && e.allowed_actions.includes('resolve') && (
                <Button variant="primary" onClick={() => setOpen('settle')}>
                  Pay out as agreed
                </Button>
              )}
              {POWERS.filter((power) => e.allowed_actions.includes(power)).map((power) => (
                <Button
                  key={power}
                  variant={PRIMARY.has(power) ? 'primary' : 'secondary'}
                  onClick={() => setOpen(power)}
                >
                  {LABELS[power]}
                </Button>
              ))}
            </div>
            <ConversationPanel
              escrowId={e.id}
              viewerSide="admin"
              canPost={e.allowed_actions.includes('post_message')}
              headingLevel={3}
              embedded
            />
            <EscrowHistory escrowId={e.id} />
          </>
        )}
      </QueryState>
      <AssignAddressDialog escrow={target('assign_address')} onClose={close} onDone={onDone} />
      <MoneyDialog escrow={target('release')} kind="release" onClose={close} onDone={onDone} />
      <MoneyDialog escrow={target('refund')} kind="refund" onClose={close} onDone={onDone} />
      <CancelDialog escrow={target('cancel')} onClose={close} onDone={onDone} />
      <SettleDialog escrow={target('settle')} onClose={close} onDone={onDone} />
      <FreezeDialog
        escrow={target('freeze') ?? target('unfreeze')}
        unfreeze={open === 'unfreeze'}
        onClose={close}
        onDone={onDone}
      />
    </div>
  );
}
