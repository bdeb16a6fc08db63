import { Button } from '../../../../components/ui/button.tsx';
import { type Column, DataTable } from '../../../../components/ui/data-table.tsx';
import { formatDate } from '../../../../lib/format.ts';
import { EscrowLink } from '../../shared/escrow-link.tsx';
import type { PoolAddress } from '../api/get-addresses.ts';

const WHY_LOCKED: Record<Exclude<PoolAddress['status'], 'available'>, string> = {
  assigned: 'Assigned to an escrow: cannot be edited or deleted',
  used: 'Money went through it: never handed out again, cannot be edited or deleted',
};

/** The pool: each address, its status and the escrow it serves; edit and delete only while available. */
export function AddressTable({
  addresses,
  onEdit,
  onDelete,
}: {
  addresses: PoolAddress[];
  onEdit: (a: PoolAddress) => void;
  onDelete: (a: PoolAddress) => void;
}) {
  const columns: Column<PoolAddress>[] = [
    { header: 'Address', className: 'mono break', cell: (a) => a.address_string },
    { header: 'Status', cell: (a) => <span className={`badge badge-address-${a.status}`}>{a.status}</span> },
    {
      header: 'Escrow',
      cell: (a) =>
        a.assigned_to_escrow_id ? <EscrowLink id={a.assigned_to_escrow_id} /> : <span className="muted">none</span>,
    },
    { header: 'Added', cell: (a) => formatDate(a.created_at) },
    {
      header: 'Actions',
      cell: (a) =>
        a.status === 'available' ? (
          <div className="row-actions">
            <Button variant="secondary" onClick={() => onEdit(a)} aria-label={`Edit ${a.address_string}`}>
              Edit
            </Button>
            <Button variant="danger" onClick={() => onDelete(a)} aria-label={`Delete ${a.address_string}`}>
              Delete
            </Button>
          </div>
        ) : (
          <span className="small muted">{WHY_LOCKED[a.status]}</span>
        ),
    },
  ];
  return <DataTable caption="Pool addresses" columns={columns} rows={addresses} rowKey={(a) => a.id} />;
}
