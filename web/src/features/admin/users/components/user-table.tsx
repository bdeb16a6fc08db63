import { Button } from '../../../../components/ui/button.tsx';
import { formatDate } from '../../../../lib/format.ts';
import type { AdminUser } from '../api/get-users.ts';

export type UserAction = 'edit' | 'suspend' | 'unsuspend' | 'delete' | 'reset' | 'cancelUnpaid';

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
  return (
    <table className="admin-table">
      <caption className="visually-hidden">Users</caption>
      <thead>
        <tr>
          <th scope="col">User</th>
          <th scope="col">Contact</th>
          <th scope="col">Joined</th>
          <th scope="col">Actions</th>
        </tr>
      </thead>
      <tbody>
        {users.map((u) => (
          <tr key={u.id}>
            <td data-label="User">
              <strong>{u.full_name}</strong> <span className={`badge badge-role-${u.role}`}>{u.role}</span>{' '}
              {u.is_frozen && <span className="badge badge-suspended">SUSPENDED</span>}{' '}
              {u.totp_enabled && <span className="badge badge-2fa">2FA</span>}
              <div className="small muted">@{u.username}</div>
              {u.is_frozen && u.suspension_reason && <div className="small">Reason: {u.suspension_reason}</div>}
            </td>
            <td data-label="Contact" className="small">
              <div className="break">
                {u.email}
                {!u.email_verified && <span className="muted"> (unverified)</span>}
              </div>
              {u.country && <div>{u.country}</div>}
              {u.phone && <div>{u.phone}</div>}
            </td>
            <td data-label="Joined">{formatDate(u.created_at)}</td>
            <td data-label="Actions">
              <div className="row-actions">
                <Button variant="secondary" onClick={() => onAction('edit', u)} aria-label={`Edit ${u.username}`}>
                  Edit
                </Button>
                {u.id !== selfId &&
                  (u.is_frozen ? (
                    <Button
                      variant="secondary"
                      onClick={() => onAction('unsuspend', u)}
                      aria-label={`Unsuspend ${u.username}`}
                    >
                      Unsuspend
                    </Button>
                  ) : (
                    <Button
                      variant="secondary"
                      onClick={() => onAction('suspend', u)}
                      aria-label={`Suspend ${u.username}`}
                    >
                      Suspend
                    </Button>
                  ))}
                {u.is_frozen && (
                  <Button
                    variant="secondary"
                    onClick={() => onAction('cancelUnpaid', u)}
                    aria-label={`Cancel the unpaid escrows of ${u.username}`}
                  >
                    Cancel unpaid escrows
                  </Button>
                )}
                <Button
                  variant="secondary"
                  onClick={() => onAction('reset', u)}
                  aria-label={`Reset the password of ${u.username}`}
                >
                  Reset password
                </Button>
                {u.id !== selfId && (
                  <Button variant="danger" onClick={() => onAction('delete', u)} aria-label={`Delete ${u.username}`}>
                    Delete
                  </Button>
                )}
              </div>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
