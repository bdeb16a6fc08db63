import { formatBtc, formatDateTime, formatUsd } from '../../../lib/format.ts';
import { addressHoldText } from '../../../lib/address-hold.ts';
import { paymentCheckText } from '../../../lib/payment-check.ts';
import type { Escrow } from '../api/types.ts';
import { splitOf } from '../../../lib/escrow-split.ts';
import { Fact, FactsList } from './facts-list.tsx';

const you = (escrow: Escrow, side: 'buyer' | 'seller') => (escrow.side === side ? ' (you)' : '');
const none = <span className="muted">Not set</span>;

/** Every fact of the escrow, grouped: the deal, the money, the parties and dates, the addresses and transactions. */
export function EscrowDetails({ escrow }: { escrow: Escrow }) {
  const split = splitOf(escrow);
  const dispute = escrow.dispute;
  return (
    <div className="escrow-details">
      <section className="card" aria-labelledby="deal-heading">
        <h2 id="deal-heading">The deal</h2>
        <FactsList>
          <Fact label="Product or service">{escrow.product_service}</Fact>
          <Fact label="Description and terms">
            <span className="pre-wrap">{escrow.description}</span>
          </Fact>
          <Fact label="Buyer">{escrow.buyer_email + you(escrow, 'buyer')}</Fact>
          <Fact label="Seller">{escrow.seller_email + you(escrow, 'seller')}</Fact>
          <Fact label="Opened by">the {escrow.creator_side}</Fact>
          <Fact label="Created">{formatDateTime(escrow.created_at)}</Fact>
          <Fact label="Payment deadline">
            {formatDateTime(escrow.payment_due_at)} ({escrow.deadline_days}{' '}
            {escrow.deadline_days === 1 ? 'day' : 'days'})
          </Fact>
        </FactsList>
      </section>
      <section className="card" aria-labelledby="money-heading">
        <h2 id="money-heading">Money</h2>
        <FactsList>
          <Fact label="Amount">{formatUsd(escrow.amount_usd)}</Fact>
          <Fact label={`Escrow fee (${escrow.fee_percentage}%)`}>{formatUsd(escrow.escrow_fee)}</Fact>
          <Fact label="Total">{formatUsd(escrow.total_usd)}</Fact>
          <Fact label="In Bitcoin">
            <span className="mono">{formatBtc(escrow.amount_sats)}</span>{' '}
            <span className="small muted">({escrow.amount_sats.toLocaleString('en-US')} satoshis)</span>
          </Fact>
          <Fact label="Rate used">{formatUsd(escrow.btc_usd_rate)} per BTC</Fact>
          {escrow.seller_sats !== null && escrow.seller_sats > 0 && (
            <Fact label="Paid to the seller">{formatBtc(escrow.seller_sats)}</Fact>
          )}
          {escrow.buyer_sats !== null && escrow.buyer_sats > 0 && (
            <Fact label="Paid back to the buyer">{formatBtc(escrow.buyer_sats)}</Fact>
          )}
          {split && <Fact label="Split">{`${split.seller}% to the seller, ${split.buyer}% to the buyer`}</Fact>}
        </FactsList>
      </section>
      <section className="card" aria-labelledby="addresses-heading">
        <h2 id="addresses-heading">Addresses and transactions</h2>
        <FactsList>
          <Fact label="Payment address">
            {escrow.status === 'cancelled' && escrow.assigned_address ? (
              <span>Given back to the pool when the escrow was cancelled: do not pay to it.</span>
            ) : escrow.assigned_address ? (
              <span className="mono break">{escrow.assigned_address}</span>
            ) : (
              none
            )}
          </Fact>
          <Fact label="Seller's payout address">
            {escrow.payout_address ? (
              <>
                <span className="mono break">{escrow.payout_address}</span>
                {escrow.payout_address_proven && <span className="small"> (proven by its signature)</span>}
                <AddressHold heldUntil={escrow.payout_address_held_until} />
              </>
            ) : (
              none
            )}
          </Fact>
          <Fact label="Buyer's refund address">
            {escrow.refund_address ? (
              <>
                <span className="mono break">{escrow.refund_address}</span>
                {escrow.refund_address_proven && <span className="small"> (proven by its signature)</span>}
                <AddressHold heldUntil={escrow.refund_address_held_until} />
              </>
            ) : (
              none
            )}
          </Fact>
          {escrow.payment_marked_at && <Fact label="Payment marked">{formatDateTime(escrow.payment_marked_at)}</Fact>}
          {escrow.funded_at && <Fact label="Payment verified">{formatDateTime(escrow.funded_at)}</Fact>}
          {escrow.funded_at && (
            <Fact label="How it was checked">
              <span className="break">{paymentCheckText(escrow)}</span>
            </Fact>
          )}
          {escrow.buyer_confirmed_at && (
            <Fact label="Receipt confirmed">{formatDateTime(escrow.buyer_confirmed_at)}</Fact>
          )}
          <Fact label="Payment transaction">
            {escrow.payment_txid ? <span className="mono break">{escrow.payment_txid}</span> : none}
          </Fact>
          <Fact label="Payout transaction">
            {escrow.payout_txid ? <span className="mono break">{escrow.payout_txid}</span> : none}
          </Fact>
        </FactsList>
      </section>
      {dispute && (
        <section className="card" aria-labelledby="dispute-heading">
          <h2 id="dispute-heading">Dispute</h2>
          <FactsList>
            <Fact label="Opened">
              by the {dispute.opened_by_side}, {formatDateTime(dispute.opened_at)}
            </Fact>
            <Fact label="Reason">
              <span className="pre-wrap">{dispute.reason}</span>
            </Fact>
            <Fact label="Status">
              {dispute.status === 'open'
                ? 'Open: an admin is reviewing it'
                : `Resolved ${dispute.resolved_at ? formatDateTime(dispute.resolved_at) : ''}`}
            </Fact>
            {dispute.outcome && (
              <Fact label="Outcome">
                <span className="pre-wrap">{dispute.outcome}</span>
              </Fact>
            )}
          </FactsList>
        </section>
      )}
    </div>
  );
}

/** A replaced address's hold, on a line of its own, while it lasts. */
function AddressHold({ heldUntil }: { heldUntil: string | null }) {
  const hold = addressHoldText(heldUntil);
  return hold ? (
    <div>
      <span className="warning">{hold}</span>
    </div>
  ) : null;
}
