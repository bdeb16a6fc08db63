import { EscrowStatusBadge } from '../../../../components/ui/escrow-status-badge.tsx';
import { formatBtc, formatDate, formatUsd } from '../../../../lib/format.ts';
import { EscrowLink } from '../../shared/escrow-link.tsx';
import type { AdminEscrow } from '../api/get-escrow.ts';

/** What the status alone does not say, for the admin's next step. */
function note(e: AdminEscrow): string | null {
  if (e.status === 'pending_payment' && !e.assigned_address) return 'Needs an address';
  if (e.status === 'pending_payment' && e.payment_marked_at) return 'Payment marked: verify';
  if (e.status === 'funded' && e.buyer_confirmed_at) return 'Receipt confirmed: release';
  return null;
}

export function EscrowTable({ escrows }: { escrows: AdminEscrow[] }) {
  return (
    <table className="admin-table">
      <caption className="visually-hidden">Escrows</caption>
      <thead>
        <tr>
          <th scope="col">Escrow</th>
          <th scope="col">Status</th>
          <th scope="col">Amount</th>
          <th scope="col">Parties</th>
          <th scope="col">Opened</th>
        </tr>
      </thead>
      <tbody>
        {escrows.map((e) => (
          <tr key={e.id}>
            <td data-label="Escrow">
              <EscrowLink id={e.id}>{e.product_service}</EscrowLink>
              <div className="small muted mono">{e.id.slice(0, 8)}</div>
            </td>
            <td data-label="Status">
              <EscrowStatusBadge escrow={e} />
              {note(e) && <div className="small">{note(e)}</div>}
            </td>
            <td data-label="Amount">
              {formatUsd(e.total_usd)}
              <div className="small muted mono">{formatBtc(e.amount_sats)}</div>
            </td>
            <td data-label="Parties" className="small break">
              <div>Buyer {e.buyer_email}</div>
              <div>Seller {e.seller_email}</div>
            </td>
            <td data-label="Opened">{formatDate(e.created_at)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
