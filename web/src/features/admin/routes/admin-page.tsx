import { lazy, Suspense } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { usePageMeta } from '../../../components/page-meta.ts';
import { Loading } from '../../../components/ui/loading.tsx';
import '../admin.css';
import { ChainBanner } from '../shared/chain-banner.tsx';
import { ADMIN_TABS, type AdminTab, tabOf } from './admin-tabs.ts';
import { useTabCounts } from './use-tab-counts.ts';

// Each panel is its own chunk, downloaded when its tab is first opened.
const panel = <T extends Record<string, React.ComponentType>>(load: () => Promise<T>, name: keyof T) =>
  lazy(async () => ({ default: (await load())[name] as React.ComponentType }));

const PANELS: Record<AdminTab, React.ComponentType> = {
  overview: panel(() => import('../overview/overview-panel.tsx'), 'OverviewPanel'),
  verifications: panel(() => import('../verifications/verifications-panel.tsx'), 'VerificationsPanel'),
  escrows: panel(() => import('../escrows/escrows-panel.tsx'), 'EscrowsPanel'),
  disputes: panel(() => import('../disputes/disputes-panel.tsx'), 'DisputesPanel'),
  addresses: panel(() => import('../addresses/addresses-panel.tsx'), 'AddressesPanel'),
  users: panel(() => import('../users/users-panel.tsx'), 'UsersPanel'),
  reviews: panel(() => import('../reviews/reviews-panel.tsx'), 'ReviewsPanel'),
  audit: panel(() => import('../audit/audit-panel.tsx'), 'AuditPanel'),
  settings: panel(() => import('../settings/settings-panel.tsx'), 'SettingsPanel'),
  ledger: panel(() => import('../ledger/ledger-panel.tsx'), 'LedgerPanel'),
  webhooks: panel(() => import('../webhooks/webhooks-panel.tsx'), 'WebhooksPanel'),
};

/** /admin: the console's tabs (the tab, and a selected escrow, live in the URL) and the chosen panel. */
export function AdminPage() {
  usePageMeta(
    'Admin console',
    'Run the escrow service: payments, escrows, disputes, the address pool, users, reviews and the ledger.',
  );
  const [params] = useSearchParams();
  const tab = tabOf(params.get('tab'));
  const counts = useTabCounts();
  const Panel = PANELS[tab];
  return (
    <article className="admin">
      <div className="page-head">
        <div>
          <p className="eyebrow">Admin</p>
          <h1>Admin console</h1>
        </div>
      </div>
      <ChainBanner />
      <nav className="admin-tabs" aria-label="Admin panels">
        {ADMIN_TABS.map(({ id, label }) => {
          const count = counts[id];
          return (
            <Link
              key={id}
              to={`/admin?tab=${id}`}
              className={`admin-tab${id === tab ? ' admin-tab-active' : ''}`}
              aria-current={id === tab ? 'page' : undefined}
            >
              {label}
              {count && (
                <span
                  className={`tab-count${id === 'addresses' ? ' tab-count-warn' : ''}`}
                  aria-label={`${count.count} ${count.label}`}
                >
                  {count.count}
                </span>
              )}
            </Link>
          );
        })}
      </nav>
      <section className="admin-panel" aria-labelledby="admin-panel-title">
        <Suspense fallback={<Loading />}>
          <Panel />
        </Suspense>
      </section>
    </article>
  );
}
