import { type Column, DataTable } from '../../../../components/ui/data-table.tsx';
import { EscrowStatusBadge } from '../../../../components/ui/escrow-status-badge.tsx';
import { formatBtc, formatDate, formatUsd } from '../../../../lib/format.ts';
import { EscrowLink } from '../../shared/escrow-link.tsx';
import type { AdminEscrow } from '../api/get-escrow.ts';
import { EmailAddress } from '../../../../components/ui/email-address.tsx';

/** The admin's next step on the escrow, from what the answer allows an admin now (contract 7.4, 7.7). */
function note(e: AdminEscrow): string | null {
  if (e.refund_due) return 'Declined after payment: refund';
  if (e.status !== 'disputed' && e.allowed_actions.includes('resolve')) return 'Agreed by both: pay out';
  if (e.ready_to_release) return 'Ready to release';
  if (e.allowed_actions.includes('assign_address')) return 'Needs an address';
  if (e.allowed_actions.includes('verify_payment')) return 'Payment marked: verify';
  if (e.allowed_actions.includes('resolve')) return 'In dispute: resolve';
  return null;
}

const COLUMNS: Column<AdminEscrow>[] = [
  {
    header: 'Escrow',
    cell: (e) => (
      <>
        <EscrowLink id={e.id}>{e.product_service}</EscrowLink>
        <div className="small muted mono">{e.id.slice(0, 8)}</div>
      </>
    ),
  },
  {
    header: 'Status',
    cell: (e) => (
      <>
        <EscrowStatusBadge escrow={e} />
        {note(e) && <div className="small">{note(e)}</div>}
      </>
    ),
  },
  {
    header: 'Amount',
    cell: (e) => (
      <>
        {formatUsd(e.total_usd)}
        <div className="small muted mono">{formatBtc(e.amount_sats)}</div>
      </>
    ),
  },
  {
    header: 'Parties',
    className: 'small break',
    cell: (e) => (
      <>
        <div>
          Buyer <EmailAddress value={e.buyer_email} />
        </div>
        <div>
          Seller <EmailAddress value={e.seller_email} />
        </div>
      </>
    ),
  },
  { header: 'Opened', cell: (e) => formatDate(e.created_at) },
];

export function EscrowTable({ escrows }: { escrows: AdminEscrow[] }) {
  return <DataTable caption="Escrows" columns={COLUMNS} rows={escrows} rowKey={(e) => e.id} />;
}
