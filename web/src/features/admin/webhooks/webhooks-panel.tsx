import { useAuth } from '../../../auth/auth-context.tsx';
import { WebhooksManager } from '../../../components/webhooks/webhooks-manager.tsx';
import { PanelHead } from '../shared/panel-head.tsx';

/** Webhooks: the admins' endpoints, told of every escrow's events (Standard Webhooks, signed), with their delivery logs. */
export function WebhooksPanel() {
  const { user } = useAuth();
  return (
    <>
      <PanelHead title="Webhooks">
        Endpoints told of every escrow's events, signed in the Standard Webhooks format. Making or re-enabling one is an
        admin power.
      </PanelHead>
      <WebhooksManager scope="admin" needsCode={Boolean(user?.totp_enabled)} />
    </>
  );
}
