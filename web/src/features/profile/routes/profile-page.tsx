import * as Tabs from '@radix-ui/react-tabs';
import { useSearchParams } from 'react-router-dom';
import { useAuth } from '../../../auth/auth-context.tsx';
import { usePageMeta } from '../../../components/page-meta.ts';
import { Loading } from '../../../components/ui/loading.tsx';
import { GeneralTab } from '../components/general-tab.tsx';
import { IntegrationsTab } from '../components/integrations-tab.tsx';
import { SecurityTab } from '../components/security-tab.tsx';
import '../profile.css';

const tabs = ['general', 'security', 'integrations'] as const;
type Tab = (typeof tabs)[number];
const isTab = (value: string | null): value is Tab => tabs.includes(value as Tab);

/**
 * /profile: General (who you are, the role switch), Security (2FA, password) and, for buyers and sellers, Integrations
 * (API tokens, webhooks); the tab lives in `?tab=`.
 */
export function ProfilePage() {
  usePageMeta('Profile', 'Your account, role and security settings.');
  const { user, sessionNotice } = useAuth();
  const [params, setParams] = useSearchParams();
  const mustChangePassword = sessionNotice === 'password_change_required';
  const requested = params.get('tab');
  const integrations = user?.role !== 'admin';
  const tab: Tab = mustChangePassword
    ? 'security'
    : isTab(requested) && (requested !== 'integrations' || integrations)
      ? requested
      : 'general';
  if (!user) return <Loading />;

  return (
    <article className="profile">
      <div className="page-head">
        <div>
          <h1>Profile</h1>
          <p className="muted">
            {user.full_name}, signed in as {user.username} ({user.role})
          </p>
        </div>
      </div>
      <Tabs.Root
        value={tab}
        onValueChange={(next) => setParams(next === 'general' ? {} : { tab: next }, { replace: true })}
      >
        <Tabs.List className="tabs-list" aria-label="Profile sections">
          <Tabs.Trigger className="tab" value="general" disabled={mustChangePassword}>
            General
          </Tabs.Trigger>
          <Tabs.Trigger className="tab" value="security">
            Security
          </Tabs.Trigger>
          {integrations && (
            <Tabs.Trigger className="tab" value="integrations" disabled={mustChangePassword}>
              Integrations
            </Tabs.Trigger>
          )}
        </Tabs.List>
        <Tabs.Content className="tab-panel" value="general">
          <GeneralTab user={user} />
        </Tabs.Content>
        <Tabs.Content className="tab-panel" value="security">
          <SecurityTab user={user} mustChangePassword={mustChangePassword} />
        </Tabs.Content>
        {integrations && (
          <Tabs.Content className="tab-panel" value="integrations">
            <IntegrationsTab user={user} />
          </Tabs.Content>
        )}
      </Tabs.Root>
    </article>
  );
}
