import { Button } from '../../../../components/ui/button.tsx';
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
  return (
    <table className="admin-table">
      <caption className="visually-hidden">Pool addresses</caption>
      <thead>
        <tr>
          <th scope="col">Address</th>
          <th scope="col">Status</th>
          <th scope="col">Escrow</th>
          <th scope="col">Added</th>
          <th scope="col">Actions</th>
        </tr>
      </thead>
      <tbody>
        {addresses.map((a) => (
          <tr key={a.id}>
            <td data-label="Address" className="mono break">
              {a.address_string}
            </td>
            <td data-label="Status">
              <span className={`badge badge-address-${a.status}`}>{a.status}</span>
            </td>
            <td data-label="Escrow">
              {a.assigned_to_escrow_id ? (
                <EscrowLink id={a.assigned_to_escrow_id} />
              ) : (
                <span className="muted">none</span>
              )}
            </td>
            <td data-label="Added">{formatDate(a.created_at)}</td>
            <td data-label="Actions">
              {a.status === 'available' ? (
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
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
