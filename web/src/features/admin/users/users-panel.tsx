import { useMemo, useState } from 'react';
import { useAuth } from '../../../auth/auth-context.tsx';
import { Field } from '../../../components/ui/field.tsx';
import { QueryState } from '../../../components/ui/query-state.tsx';
import { NoticeLine } from '../shared/notice-line.tsx';
import { PanelHead } from '../shared/panel-head.tsx';
import { useNotice } from '../../../hooks/use-notice.ts';
import { type AdminUser, useUsers } from './api/get-users.ts';
import { CancelUnpaidDialog } from './components/cancel-unpaid-dialog.tsx';
import { DeleteUserDialog } from './components/delete-user-dialog.tsx';
import { EditUserDialog } from './components/edit-user-dialog.tsx';
import { ResetPasswordDialog } from './components/reset-password-dialog.tsx';
import { SuspendDialog } from './components/suspend-dialog.tsx';
import { UnsuspendDialog } from './components/unsuspend-dialog.tsx';
import { type UserAction, UserTable } from './components/user-table.tsx';

const matches = (u: AdminUser, text: string) =>
  [u.full_name, u.username, u.email, u.country ?? '', u.phone ?? '', u.role].some((v) =>
    v.toLowerCase().includes(text),
  );

/** Users: every account, searched by name, username, e-mail, country, phone or role, and what an admin may do to one. */
export function UsersPanel() {
  const users = useUsers();
  const { user: self } = useAuth();
  const [search, setSearch] = useState('');
  const [open, setOpen] = useState<{ action: UserAction; user: AdminUser } | null>(null);
  const { notice, success } = useNotice();
  const text = search.trim().toLowerCase();
  const shown = useMemo(() => (users.data ?? []).filter((u) => !text || matches(u, text)), [users.data, text]);
  const target = (action: UserAction) => (open?.action === action ? open.user : null);
  const close = () => setOpen(null);
  return (
    <>
      <PanelHead title="Users">
        Every account. Suspending signs a user out everywhere; their escrows stay as they are until you cancel the
        unpaid ones.
      </PanelHead>
      <div className="filters-row">
        <Field label="Search users">
          <input
            type="search"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            placeholder="Name, username, e-mail…"
          />
        </Field>
      </div>
      <NoticeLine notice={notice} />
      <QueryState
        query={users}
        errorFallback="Failed to load users"
        isEmpty={(list) => list.length === 0}
        empty="No users yet."
      >
        {() =>
          shown.length === 0 ? (
            <p className="empty">No user matches “{search}”.</p>
          ) : (
            <UserTable users={shown} selfId={self?.id} onAction={(action, user) => setOpen({ action, user })} />
          )
        }
      </QueryState>
      <EditUserDialog user={target('edit')} onClose={close} onDone={success} />
      <SuspendDialog user={target('suspend')} onClose={close} onDone={success} />
      <UnsuspendDialog user={target('unsuspend')} onClose={close} onDone={success} />
      <DeleteUserDialog user={target('delete')} onClose={close} onDone={success} />
      <ResetPasswordDialog user={target('reset')} onClose={close} onDone={success} />
      <CancelUnpaidDialog user={target('cancelUnpaid')} onClose={close} onDone={success} />
    </>
  );
}
