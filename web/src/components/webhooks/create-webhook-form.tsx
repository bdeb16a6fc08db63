import { useState } from 'react';
import { WEBHOOK_EVENT_TYPES } from '../../../../contract/webhooks.ts';
import { messageOf } from '../../api/client.ts';
import { Button } from '../ui/button.tsx';
import { CopyButton } from '../ui/copy-button.tsx';
import { Field } from '../ui/field.tsx';
import { Message } from '../ui/message.tsx';
import { TotpField } from '../ui/totp-field.tsx';
import { type WebhookScope, useCreateWebhook } from './webhook-api.ts';

const DEFAULT_TYPES = [
  'escrow.created',
  'escrow.funded',
  'escrow.released',
  'escrow.refunded',
  'escrow.dispute_opened',
];

/** The form that makes an endpoint, then shows its signing secret once. */
export function CreateWebhookForm({ scope, needsCode }: { scope: WebhookScope; needsCode: boolean }) {
  const create = useCreateWebhook(scope);
  const [url, setUrl] = useState('');
  const [types, setTypes] = useState<string[]>(DEFAULT_TYPES);
  const [code, setCode] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const toggle = (type: string) =>
    setTypes((now) => (now.includes(type) ? now.filter((t) => t !== type) : [...now, type]));
  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    if (!/^https?:\/\/\S+$/.test(url.trim()))
      return setProblem("Enter the receiver's URL, starting with https:// or http://");
    if (types.length === 0) return setProblem('Choose at least one event type');
    if (needsCode && !/^\d{6}$/.test(code)) return setProblem('Enter the 6-digit code from your authenticator app');
    setProblem(null);
    create.mutate(
      { url: url.trim(), event_types: types, ...(needsCode ? { totp_code: code } : {}) },
      {
        onSuccess: () => {
          setUrl('');
          setCode('');
        },
      },
    );
  };
  return (
    <div className="webhooks-stack">
      {create.isSuccess && (
        <Message tone="success">
          <p>
            Endpoint created for <span className="mono">{create.data.endpoint.url}</span>. Its signing secret is shown
            this once: store it with the receiver now to verify deliveries (Standard Webhooks).
          </p>
          <p className="secret-once mono">{create.data.secret}</p>
          <CopyButton text={create.data.secret} label="Copy secret" />
        </Message>
      )}
      <form className="form" onSubmit={submit} noValidate>
        <Field
          label="Receiver URL"
          required
          hint="Where each event is POSTed, signed with the endpoint's secret. Public hosts only."
        >
          <input
            type="url"
            inputMode="url"
            autoComplete="off"
            spellCheck={false}
            value={url}
            onChange={(e) => setUrl(e.target.value)}
            placeholder="https://example.com/hooks/escrow"
          />
        </Field>
        <fieldset className="choice-group event-types">
          <legend>Events to send</legend>
          {WEBHOOK_EVENT_TYPES.map((type) => (
            <label key={type} className="choice">
              <input type="checkbox" checked={types.includes(type)} onChange={() => toggle(type)} />
              <span className="mono">{type}</span>
            </label>
          ))}
        </fieldset>
        {needsCode && <TotpField value={code} onChange={setCode} required label="Your 2FA code" />}
        {(problem ?? create.isError) && (
          <Message tone="error">{problem ?? messageOf(create.error, 'Failed to create the endpoint')}</Message>
        )}
        <div>
          <Button type="submit" busy={create.isPending}>
            Create endpoint
          </Button>
        </div>
      </form>
    </div>
  );
}
