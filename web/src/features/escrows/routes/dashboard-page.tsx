import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { useAuth } from '../../../auth/auth-context.tsx';
import { usePageMeta } from '../../../components/page-meta.ts';
import { Button } from '../../../components/ui/button.tsx';
import { QueryState } from '../../../components/ui/query-state.tsx';
import { useEscrows } from '../api/get-escrows.ts';
import type { Escrow } from '../api/types.ts';
import { CreateEscrowDialog } from '../components/create-escrow-dialog.tsx';
import { EscrowListSkeleton } from '../components/escrow-skeletons.tsx';
import { EscrowListItem } from '../components/escrow-list-item.tsx';
import { VerifyEmailBanner } from '../components/verify-email-banner.tsx';
import { DASHBOARD_FILTERS, type DashboardFilter, FILTER_LABELS, matchesFilter } from '../model/escrow-progress.ts';
import '../escrows.css';

const EMPTY_FILTER: Record<DashboardFilter, string> = {
  needs_action: 'Nothing waits on you right now.',
  active: 'No open escrows.',
  closed: 'No closed escrows yet.',
  all: '',
};

/** 'My Escrows': every escrow the user created or is a party to (admins: all), with filters in the address. */
export function DashboardPage() {
  usePageMeta('Dashboard', 'Your escrows.');
  const { user } = useAuth();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const [creating, setCreating] = useState(false);
  const escrows = useEscrows();
  const asked = params.get('filter') as DashboardFilter | null;
  const filter: DashboardFilter = asked && DASHBOARD_FILTERS.includes(asked) ? asked : 'all';
  if (!user) return null;
  const canCreate = user.role !== 'admin';

  const created = (escrow: Escrow) => {
    setCreating(false);
    navigate(`/escrow/${escrow.id}${escrow.side === 'buyer' && escrow.assigned_address ? '?pay=1' : ''}`);
  };

  return (
    <article className="escrows-page">
      <div className="page-head">
        <div>
          <p className="eyebrow">Dashboard</p>
          <h1>My Escrows</h1>
        </div>
        {canCreate && <Button onClick={() => setCreating(true)}>+ Create Escrow</Button>}
      </div>
      {!user.email_verified && <VerifyEmailBanner email={user.email} />}
      <nav className="escrow-filters" aria-label="Show escrows">
        {DASHBOARD_FILTERS.map((name) => (
          <Link
            key={name}
            to={name === 'all' ? '/dashboard' : `/dashboard?filter=${name}`}
            className={`filter-chip${filter === name ? ' filter-chip-active' : ''}`}
            aria-current={filter === name ? 'page' : undefined}
            onClick={(event) => {
              event.preventDefault();
              setParams(name === 'all' ? {} : { filter: name }, { replace: true });
            }}
          >
            {FILTER_LABELS[name]}
          </Link>
        ))}
      </nav>
      <QueryState
        query={escrows}
        loading={<EscrowListSkeleton />}
        errorFallback="Your escrows cannot be loaded right now."
        isEmpty={(list) => list.length === 0}
        empty={
          <>
            <p>
              <strong>No escrows yet.</strong>
            </p>
            <p>
              {canCreate
                ? `Click '+ Create Escrow', give the ${user.role === 'seller' ? "buyer's" : "seller's"} e-mail, the amount in USD and what is being sold. The other party is invited by mail.`
                : 'Escrows opened by buyers and sellers appear here.'}
            </p>
            <p className="small">
              Escrows others open with your e-mail address appear here once that address is verified.
            </p>
          </>
        }
      >
        {(list) => {
          const shown = list.filter((escrow) => matchesFilter(escrow, filter));
          return shown.length === 0 ? (
            <p className="empty">{EMPTY_FILTER[filter]}</p>
          ) : (
            <ul className="stacked-list">
              {shown.map((escrow) => (
                <EscrowListItem key={escrow.id} escrow={escrow} userId={user.id} />
              ))}
            </ul>
          );
        }}
      </QueryState>
      {creating && <CreateEscrowDialog user={user} open={creating} onOpenChange={setCreating} onCreated={created} />}
    </article>
  );
}
