import { AlertTriangle } from 'lucide-react';
import { Link } from 'react-router-dom';
import { EscrowStatusBadge } from '../../../components/ui/escrow-status-badge.tsx';
import { formatBtc, formatDateTime, formatUsd } from '../../../lib/format.ts';
import type { Escrow } from '../api/types.ts';
import { statusNote } from '../model/escrow-progress.ts';

export const PREVIEW_LENGTH = 60;
export const preview = (text: string) => (text.length > PREVIEW_LENGTH ? `${text.slice(0, PREVIEW_LENGTH)}…` : text);

function counterparty(escrow: Escrow): string {
  if (escrow.side === 'buyer') return `Seller: ${escrow.seller_email}`;
  if (escrow.side === 'seller') return `Buyer: ${escrow.buyer_email}`;
  return `Buyer: ${escrow.buyer_email} · Seller: ${escrow.seller_email}`;
}

/** One escrow in 'My Escrows': a link to its page with what stands out at a glance. */
export function EscrowListItem({ escrow, userId }: { escrow: Escrow; userId: string }) {
  const note = statusNote(escrow);
  const unpaid = escrow.status === 'pending_payment';
  const paymentNeeded = escrow.allowed_actions.includes('request_payment');
  return (
    <li>
      <Link to={`/escrow/${escrow.id}`} className="card escrow-row">
        <div className="escrow-main">
          <h2 className="escrow-title">{escrow.product_service}</h2>
          <p className="muted">{preview(escrow.description)}</p>
          <p className="small muted">
            {escrow.side === 'admin' ? 'Admin view' : `You are the ${escrow.side}`}
            {escrow.created_by === userId && ' · Created by you'}
          </p>
          <p className="small muted escrow-party">{counterparty(escrow)}</p>
          {paymentNeeded && (
            <p className="warning">
              <AlertTriangle size={16} aria-hidden="true" /> Payment needed
            </p>
          )}
        </div>
        <div className="escrow-side">
          <EscrowStatusBadge escrow={escrow} />
          {note && <p className="small status-note">{note}</p>}
          <p className="escrow-amount">{formatUsd(escrow.total_usd)}</p>
          <p className="small muted mono">{formatBtc(escrow.amount_sats)}</p>
          {unpaid && <p className="small muted">Pay by {formatDateTime(escrow.payment_due_at)}</p>}
        </div>
      </Link>
    </li>
  );
}
