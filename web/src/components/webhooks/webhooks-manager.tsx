import { useState } from 'react';
import type { WebhookEndpoint } from '../../../../contract/webhooks.ts';
import { messageOf } from '../../api/client.ts';
import { formatDateTime } from '../../lib/format.ts';
import { Button } from '../ui/button.tsx';
import { ConfirmDialog } from '../ui/confirm-dialog.tsx';
import { Message } from '../ui/message.tsx';
import { QueryState } from '../ui/query-state.tsx';
import { TotpField } from '../ui/totp-field.tsx';
import { CreateWebhookForm } from './create-webhook-form.tsx';
import { DeliveryLog } from './delivery-log.tsx';
import {
  type WebhookAction,
  type WebhookScope,
  useWebhookAction,
  useWebhookDeliveries,
  useWebhooks,
} from './webhook-api.ts';
import './webhooks.css';

interface Props {
  scope: WebhookScope;
  /** Whether making or re-enabling an endpoint asks for a 2FA code (an admin power, for an admin with 2FA on). */
  needsCode: boolean;
  /** The heading level of each endpoint (below the section's own heading). */
  headingLevel?: 'h3' | 'h4';
}

/** Webhook endpoints: make one (secret shown once), and per endpoint its delivery log, Send test, disable, delete. */
export function WebhooksManager({ scope, needsCode, headingLevel = 'h3' }: Props) {
  const endpoints = useWebhooks(scope);
  return (
    <div className="webhooks webhooks-stack">
      <CreateWebhookForm scope={scope} needsCode={needsCode} />
      <QueryState
        query={endpoints}
        errorFallback="Failed to load webhooks"
        isEmpty={(list) => list.length === 0}
        empty={<p>No webhook endpoints yet. Create one above to receive escrow events.</p>}
      >
        {(list) => (
          <ul className="endpoint-list">
            {list.map((endpoint) => (
              <EndpointCard
                key={endpoint.id}
                scope={scope}
                endpoint={endpoint}
                needsCode={needsCode}
                Heading={headingLevel}
              />
            ))}
          </ul>
        )}
      </QueryState>
    </div>
  );
}

function EndpointCard({
  scope,
  endpoint,
  needsCode,
  Heading,
}: {
  scope: WebhookScope;
  endpoint: WebhookEndpoint;
  needsCode: boolean;
  Heading: 'h3' | 'h4';
}) {
  const action = useWebhookAction(scope);
  const [showLog, setShowLog] = useState(false);
  const [confirming, setConfirming] = useState<'delete' | 'enable' | null>(null);
  const [code, setCode] = useState('');
  const [notice, setNotice] = useState<string | null>(null);
  const log = useWebhookDeliveries(scope, endpoint.id, showLog);
  const run = (next: WebhookAction, done: string) =>
    action.mutate(next, {
      onSuccess: () => {
        setNotice(done);
        setConfirming(null);
        setCode('');
      },
    });
  const busyDelivery = action.isPending && action.variables?.kind === 'redeliver' ? action.variables.id : null;
  return (
    <li className="card endpoint">
      <div className="endpoint-head">
        <Heading className="endpoint-url mono">{endpoint.url}</Heading>
        <span className={`badge ${endpoint.enabled ? 'badge-delivery-delivered' : 'badge-delivery-pending'}`}>
          {endpoint.enabled ? 'Enabled' : 'Disabled'}
        </span>
      </div>
      <p className="muted small">
        {endpoint.event_types.join(', ')} · created {formatDateTime(endpoint.created_at)}
      </p>
      <div className="actions">
        <Button variant="secondary" onClick={() => setShowLog((v) => !v)} aria-expanded={showLog}>
          {showLog ? 'Hide delivery log' : 'Delivery log'}
        </Button>
        <Button
          variant="secondary"
          disabled={!endpoint.enabled}
          busy={action.isPending && action.variables?.kind === 'test'}
          onClick={() => run({ kind: 'test', id: endpoint.id }, 'Test message queued: it is sent within seconds.')}
        >
          Send test
        </Button>
        {endpoint.enabled ? (
          <Button
            variant="secondary"
            busy={action.isPending && action.variables?.kind === 'disable'}
            onClick={() =>
              run({ kind: 'disable', id: endpoint.id }, 'Endpoint disabled: nothing new is queued for it.')
            }
          >
            Disable
          </Button>
        ) : (
          <Button
            variant="secondary"
            onClick={() =>
              needsCode ? setConfirming('enable') : run({ kind: 'enable', id: endpoint.id }, 'Endpoint enabled.')
            }
          >
            Enable
          </Button>
        )}
        <Button variant="danger" onClick={() => setConfirming('delete')}>
          Delete
        </Button>
      </div>
      {notice && !action.isError && <Message tone="success">{notice}</Message>}
      {action.isError && confirming === null && (
        <Message tone="error">{messageOf(action.error, 'The action failed')}</Message>
      )}
      {showLog && (
        <QueryState query={log} errorFallback="Failed to load the delivery log">
          {(deliveries) => (
            <DeliveryLog
              deliveries={deliveries}
              busyId={busyDelivery}
              onRedeliver={(id) => run({ kind: 'redeliver', id }, 'Queued again with the same webhook-id.')}
            />
          )}
        </QueryState>
      )}
      <ConfirmDialog
        open={confirming !== null}
        onOpenChange={(open) => !open && setConfirming(null)}
        title={confirming === 'delete' ? 'Delete this endpoint?' : 'Enable this endpoint?'}
        description={
          confirming === 'delete'
            ? 'Its secret and delivery log go too; queued deliveries are dropped.'
            : 'Escrow events start going to it again.'
        }
        confirmLabel={confirming === 'delete' ? 'Delete endpoint' : 'Enable endpoint'}
        tone={confirming === 'delete' ? 'danger' : 'primary'}
        busy={action.isPending}
        error={action.isError ? messageOf(action.error, 'The action failed') : null}
        onConfirm={() =>
          confirming === 'delete'
            ? run({ kind: 'delete', id: endpoint.id }, 'Endpoint deleted.')
            : run({ kind: 'enable', id: endpoint.id, totpCode: code }, 'Endpoint enabled.')
        }
      >
        <p className="mono">{endpoint.url}</p>
        {confirming === 'enable' && needsCode && (
          <TotpField value={code} onChange={setCode} required label="Your 2FA code" />
        )}
      </ConfirmDialog>
    </li>
  );
}
