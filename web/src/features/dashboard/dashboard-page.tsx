import { useQuery } from '@tanstack/react-query';
import { AlertTriangle } from 'lucide-react';
import { api } from '../../api/client.ts';
import { useAuth } from '../../auth/auth-context.tsx';
import { usePageMeta } from '../../components/page-meta.ts';
import { Loading } from '../../components/ui/loading.tsx';
import { Message } from '../../components/ui/message.tsx';
import { StatusBadge } from '../../components/ui/status-badge.tsx';

interface EscrowSummary {
  id: string;
  product_service: string;
  description: string;
  status: string;
  side: 'buyer' | 'seller' | 'admin';
  created_by: string;
  total_usd: number;
  amount_btc: number;
  assigned_address: string | null;
  created_at: string;
}

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
const preview = (text: string) => (text.length > 60 ? `${text.slice(0, 60)}…` : text);

/** 'My Escrows': every escrow the user created or is a party to (admins: all), newest first. */
export function DashboardPage() {
  usePageMeta('Dashboard', 'Your escrows.');
  const { user } = useAuth();
  const escrows = useQuery({ queryKey: ['escrows'], queryFn: ({ signal }) => api<EscrowSummary[]>('/escrows', { signal }) });
  return (
    <article>
      <div className="page-head">
        <div>
          <p className="eyebrow">Dashboard</p>
          <h1>My Escrows</h1>
        </div>
      </div>
      {user && !user.email_verified && (
        <Message tone="info">Confirm your e-mail address (see the link we sent you) to see escrows other people opened with it.</Message>
      )}
      {escrows.isPending && <Loading />}
      {escrows.isError && <Message tone="error">{escrows.error.message}</Message>}
      {escrows.isSuccess && escrows.data.length === 0 && <p className="empty">No escrows yet. Escrows you open, or that are opened with your e-mail address, appear here.</p>}
      {escrows.isSuccess && escrows.data.length > 0 && (
        <ul className="escrow-list">
          {escrows.data.map((e) => (
            <li key={e.id} className="card escrow-row">
              <div className="escrow-main">
                <h2 className="escrow-title">{e.product_service}</h2>
                <p className="muted">{preview(e.description)}</p>
                <p className="small muted">
                  {e.side === 'admin' ? 'Admin view' : `You are the ${e.side}`}
                  {e.created_by === user?.id && ' · Created by you'}
                </p>
                {e.side === 'buyer' && e.status === 'pending_payment' && !e.assigned_address && (
                  <p className="warning">
                    <AlertTriangle size={16} aria-hidden="true" /> Payment needed
                  </p>
                )}
              </div>
              <div className="escrow-side">
                <StatusBadge status={e.status} />
                <p className="escrow-amount">{usd.format(e.total_usd)}</p>
                <p className="small muted mono">{e.amount_btc.toFixed(8)} BTC</p>
              </div>
            </li>
          ))}
        </ul>
      )}
    </article>
  );
}
