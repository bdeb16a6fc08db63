import { useState } from 'react';
import type { ApiToken, ApiTokenScope } from '../../../../../contract/api-tokens.ts';
import type { User } from '../../../../../contract/users.ts';
import { messageOf } from '../../../api/client.ts';
import { Button } from '../../../components/ui/button.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { CopyButton } from '../../../components/ui/copy-button.tsx';
import { Field } from '../../../components/ui/field.tsx';
import { Message } from '../../../components/ui/message.tsx';
import { QueryState } from '../../../components/ui/query-state.tsx';
import { TotpField } from '../../../components/ui/totp-field.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { useApiTokens, useCreateApiToken, useRevokeApiToken } from '../api/api-tokens.ts';

/** API tokens: make one (read and/or write; the 2FA code when 2FA is on), shown once; the list with last use; revoke. */
export function ApiTokensSection({ user }: { user: User }) {
  const tokens = useApiTokens();
  const create = useCreateApiToken();
  const revoke = useRevokeApiToken();
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<ApiTokenScope[]>(['read']);
  const [code, setCode] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [revoking, setRevoking] = useState<ApiToken | null>(null);
  const toggle = (scope: ApiTokenScope) =>
    setScopes((now) => (now.includes(scope) ? now.filter((s) => s !== scope) : [...now, scope]));
  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    if (!name.trim()) return setProblem('Name the token (what uses it)');
    if (scopes.length === 0) return setProblem('Choose read, write or both');
    if (user.totp_enabled && !/^\d{6}$/.test(code))
      return setProblem('Enter the 6-digit code from your authenticator app');
    setProblem(null);
    create.mutate(
      { name: name.trim(), scopes, ...(user.totp_enabled ? { totp_code: code } : {}) },
      {
        onSuccess: () => {
          setName('');
          setCode('');
        },
      },
    );
  };
  return (
    <section className="profile-section" aria-labelledby="tokens-heading">
      <h2 id="tokens-heading">API tokens</h2>
      <p className="muted">
        For your own programs: send one as <span className="mono">Authorization: Bearer</span>. A read token may only
        read; write lets it act as you on your escrows. Tokens never reach your account settings, 2FA or admin
        functions.
      </p>
      {create.isSuccess && (
        <Message tone="success">
          <p>Token “{create.data.api_token.name}” made. Copy it now: it is shown this once.</p>
          <p className="secret-once mono">{create.data.token}</p>
          <CopyButton text={create.data.token} label="Copy token" />
        </Message>
      )}
      <form className="form" onSubmit={submit} noValidate>
        <Field label="Name" required hint="What uses it, e.g. “Shop sync”.">
          <input type="text" maxLength={80} value={name} onChange={(e) => setName(e.target.value)} autoComplete="off" />
        </Field>
        <fieldset className="choice-group">
          <legend>Scopes</legend>
          <label className="choice">
            <input type="checkbox" checked={scopes.includes('read')} onChange={() => toggle('read')} />
            <span>read: list and open your escrows</span>
          </label>
          <label className="choice">
            <input type="checkbox" checked={scopes.includes('write')} onChange={() => toggle('write')} />
            <span>write: open escrows and take actions on them</span>
          </label>
        </fieldset>
        {user.totp_enabled && <TotpField value={code} onChange={setCode} required />}
        {(problem ?? create.isError) && (
          <Message tone="error">{problem ?? messageOf(create.error, 'Failed to make the token')}</Message>
        )}
        <div>
          <Button type="submit" busy={create.isPending}>
            Make token
          </Button>
        </div>
      </form>
      <h3>Your tokens</h3>
      <QueryState
        query={tokens}
        errorFallback="Failed to load API tokens"
        isEmpty={(list) => list.length === 0}
        empty={<p>No API tokens yet.</p>}
      >
        {(list) => (
          <ul className="token-list">
            {list.map((token) => (
              <li key={token.id} className="token-row">
                <div>
                  <strong>{token.name}</strong> <span className="muted">({token.scopes.join(' and ')})</span>
                  <div className="muted small">
                    made {formatDateTime(token.created_at)} ·{' '}
                    {token.last_used_at ? `last used ${formatDateTime(token.last_used_at)}` : 'never used'}
                  </div>
                </div>
                <Button variant="danger" onClick={() => setRevoking(token)} aria-label={`Revoke ${token.name}`}>
                  Revoke
                </Button>
              </li>
            ))}
          </ul>
        )}
      </QueryState>
      <ConfirmDialog
        open={revoking !== null}
        onOpenChange={(open) => !open && setRevoking(null)}
        title="Revoke this token?"
        description="Programs using it are refused from now on. This cannot be undone."
        confirmLabel="Revoke token"
        tone="danger"
        busy={revoke.isPending}
        error={revoke.isError ? messageOf(revoke.error, 'Failed to revoke the token') : null}
        onConfirm={() => revoking && revoke.mutate(revoking.id, { onSuccess: () => setRevoking(null) })}
      >
        <p>{revoking?.name}</p>
      </ConfirmDialog>
    </section>
  );
}
