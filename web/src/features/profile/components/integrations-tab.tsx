import type { User } from '../../../../../contract/users.ts';
import { WebhooksManager } from '../../../components/webhooks/webhooks-manager.tsx';
import { ApiTokensSection } from './api-tokens-section.tsx';

/** Integrations: API tokens for one's own programs, and webhooks for the escrows one is party to. */
export function IntegrationsTab({ user }: { user: User }) {
  return (
    <>
      <ApiTokensSection user={user} />
      <section className="profile-section" aria-labelledby="webhooks-heading">
        <h2 id="webhooks-heading">Webhooks</h2>
        <p className="muted">
          Your receiver is told of the events of the escrows you are party to, signed in the Standard Webhooks format.
        </p>
        <WebhooksManager scope="user" needsCode={false} />
      </section>
    </>
  );
}
