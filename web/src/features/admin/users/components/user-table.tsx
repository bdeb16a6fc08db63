import { Button } from '../../../../components/ui/button.tsx';
import { type Column, DataTable } from '../../../../components/ui/data-table.tsx';
import { formatDate } from '../../../../lib/format.ts';
import type { AdminUser } from '../api/get-users.ts';
import { EmailAddress } from '../../../../components/ui/email-address.tsx';

export type UserAction = 'edit' | 'suspend' | 'unsuspend' | 'delete' | 'reset' | 'cancelUnpaid';

/** The buttons on one user's row: never suspend or delete yourself. */
function UserActions({
  user,
  self,
  onAction,
}: {
  user: AdminUser;
  self: boolean;
  onAction: (action: UserAction, user: AdminUser) => void;
}) {
  return (
    <div className="row-actions">
      <Button variant="secondary" onClick={() => onAction('edit', user)} aria-label={`Edit ${user.username}`}>
        Edit
      </Button>
      {!self &&
        (user.is_frozen ? (
          <Button
            variant="secondary"
            onClick={() => onAction('unsuspend', user)}
            aria-label={`Unsuspend ${user.username}`}
          >
            Unsuspend
          </Button>
        ) : (
          <Button variant="secondary" onClick={() => onAction('suspend', user)} aria-label={`Suspend ${user.username}`}>
            Suspend
          </Button>
        ))}
      {user.is_frozen && (
        <Button
          variant="secondary"
          onClick={() => onAction('cancelUnpaid', user)}
          aria-label={`Cancel the unpaid escrows of ${user.username}`}
        >
          Cancel unpaid escrows
        </Button>
      )}
      <Button
        variant="secondary"
        onClick={() => onAction('reset', user)}
        aria-label={`Reset the password of ${user.username}`}
      >
        Reset password
      </Button>
      {!self && (
        <Button variant="danger" onClick={() => onAction('delete', user)} aria-label={`Delete ${user.username}`}>
          Delete
        </Button>
      )}
    </div>
  );
}

/** Spec's user list: full name, role badge, SUSPENDED, 2FA, username, e-mail, country and phone if present, joined date. */
export function UserTable({
  users,
  selfId,
  onAction,
}: {
  users: AdminUser[];
  selfId: string | undefined;
  onAction: (action: UserAction, user: AdminUser) => void;
}) {
  const columns: Column<AdminUser>[] = [
    {
      header: 'User',
      cell: (u) => (
        <>
          <strong>{u.full_name}</strong> <span className={`badge badge-role-${u.role}`}>{u.role}</span>{' '}
          {u.is_frozen && <span className="badge badge-suspended">SUSPENDED</span>}{' '}
          {u.totp_enabled && <span className="badge badge-2fa">2FA</span>}
          <div className="small muted">@{u.username}</div>
          {u.is_frozen && u.suspension_reason && <div className="small">Reason: {u.suspension_reason}</div>}
        </>
      ),
    },
    {
      header: 'Contact',
      className: 'small',
      cell: (u) => (
        <>
          <div className="break">
            <EmailAddress value={u.email} />
            {!u.email_verified && <span className="muted"> (unverified)</span>}
          </div>
          {u.country && <div>{u.country}</div>}
          {u.phone && <div>{u.phone}</div>}
        </>
      ),
    },
    { header: 'Joined', cell: (u) => formatDate(u.created_at) },
    { header: 'Actions', cell: (u) => <UserActions user={u} self={u.id === selfId} onAction={onAction} /> },
  ];
  return <DataTable caption="Users" columns={columns} rows={users} rowKey={(u) => u.id} />;
}
