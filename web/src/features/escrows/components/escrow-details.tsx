import { formatBtc, formatDateTime, formatUsd } from '../../../lib/format.ts';
import { paymentCheckText } from '../../../lib/payment-check.ts';
import type { Escrow } from '../api/types.ts';
import { splitOf } from '../../../lib/escrow-split.ts';

const you = (escrow: Escrow, side: 'buyer' | 'seller') => (escrow.side === side ? ' (you)' : '');
const none = <span className="muted">Not set</span>;

function Row({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

/** Every fact of the escrow, grouped: the deal, the money, the parties and dates, the addresses and transactions. */
export function EscrowDetails({ escrow }: { escrow: Escrow }) {
  const split = splitOf(escrow);
  const dispute = escrow.dispute;
  return (
    <div className="escrow-details">
      <section className="card" aria-labelledby="deal-heading">
        <h2 id="deal-heading">The deal</h2>
        <dl className="facts-list">
          <Row label="Product or service">{escrow.product_service}</Row>
          <Row label="Description and terms">
            <span className="pre-wrap">{escrow.description}</span>
          </Row>
          <Row label="Buyer">{escrow.buyer_email + you(escrow, 'buyer')}</Row>
          <Row label="Seller">{escrow.seller_email + you(escrow, 'seller')}</Row>
          <Row label="Opened by">the {escrow.creator_side}</Row>
          <Row label="Created">{formatDateTime(escrow.created_at)}</Row>
          <Row label="Payment deadline">
            {formatDateTime(escrow.payment_due_at)} ({escrow.deadline_days} {escrow.deadline_days === 1 ? 'day' : 'days'})
          </Row>
        </dl>
      </section>
      <section className="card" aria-labelledby="money-heading">
        <h2 id="money-heading">Money</h2>
        <dl className="facts-list">
          <Row label="Amount">{formatUsd(escrow.amount_usd)}</Row>
          <Row label={`Escrow fee (${escrow.fee_percentage}%)`}>{formatUsd(escrow.escrow_fee)}</Row>
          <Row label="Total">{formatUsd(escrow.total_usd)}</Row>
          <Row label="In Bitcoin">
            <span className="mono">{formatBtc(escrow.amount_sats)}</span> <span className="small muted">({escrow.amount_sats.toLocaleString('en-US')} satoshis)</span>
          </Row>
          <Row label="Rate used">{formatUsd(escrow.btc_usd_rate)} per BTC</Row>
          {escrow.seller_sats !== null && escrow.seller_sats > 0 && <Row label="Paid to the seller">{formatBtc(escrow.seller_sats)}</Row>}
          {escrow.buyer_sats !== null && escrow.buyer_sats > 0 && <Row label="Paid back to the buyer">{formatBtc(escrow.buyer_sats)}</Row>}
          {split && <Row label="Split">{`${split.seller}% to the seller, ${split.buyer}% to the buyer`}</Row>}
        </dl>
      </section>
      <section className="card" aria-labelledby="addresses-heading">
        <h2 id="addresses-heading">Addresses and transactions</h2>
        <dl className="facts-list">
          <Row label="Payment address">
            {escrow.status === 'cancelled' && escrow.assigned_address ? (
              <span>Given back to the pool when the escrow was cancelled: do not pay to it.</span>
            ) : escrow.assigned_address ? (
              <span className="mono break">{escrow.assigned_address}</span>
            ) : (
              none
            )}
          </Row>
          <Row label="Seller's payout address">
            {escrow.payout_address ? (
              <>
                <span className="mono break">{escrow.payout_address}</span>
                {escrow.payout_address_proven && <span className="small"> (proven by its signature)</span>}
              </>
            ) : (
              none
            )}
          </Row>
          <Row label="Buyer's refund address">
            {escrow.refund_address ? (
              <>
                <span className="mono break">{escrow.refund_address}</span>
                {escrow.refund_address_proven && <span className="small"> (proven by its signature)</span>}
              </>
            ) : (
              none
            )}
          </Row>
          {escrow.payment_marked_at && <Row label="Payment marked">{formatDateTime(escrow.payment_marked_at)}</Row>}
          {escrow.funded_at && <Row label="Payment verified">{formatDateTime(escrow.funded_at)}</Row>}
          {escrow.funded_at && (
            <Row label="How it was checked">
              <span className="wrap-anywhere">{paymentCheckText(escrow)}</span>
            </Row>
          )}
          {escrow.buyer_confirmed_at && <Row label="Receipt confirmed">{formatDateTime(escrow.buyer_confirmed_at)}</Row>}
          <Row label="Payment transaction">{escrow.payment_txid ? <span className="mono break">{escrow.payment_txid}</span> : none}</Row>
          <Row label="Payout transaction">{escrow.payout_txid ? <span className="mono break">{escrow.payout_txid}</span> : none}</Row>
        </dl>
      </section>
      {dispute && (
        <section className="card" aria-labelledby="dispute-heading">
          <h2 id="dispute-heading">Dispute</h2>
          <dl className="facts-list">
            <Row label="Opened">
              by the {dispute.opened_by_side}, {formatDateTime(dispute.opened_at)}
            </Row>
            <Row label="Reason">
              <span className="pre-wrap">{dispute.reason}</span>
            </Row>
            <Row label="Status">{dispute.status === 'open' ? 'Open: an admin is reviewing it' : `Resolved ${dispute.resolved_at ? formatDateTime(dispute.resolved_at) : ''}`}</Row>
            {dispute.outcome && (
              <Row label="Outcome">
                <span className="pre-wrap">{dispute.outcome}</span>
              </Row>
            )}
          </dl>
        </section>
      )}
    </div>
  );
}
