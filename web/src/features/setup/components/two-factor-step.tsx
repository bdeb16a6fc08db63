import { useState } from 'react';
import { Link } from 'react-router-dom';
import { messageOf } from '../../../api/client.ts';
import { Button } from '../../../components/ui/button.tsx';
import { CopyButton } from '../../../components/ui/copy-button.tsx';
import { Message } from '../../../components/ui/message.tsx';
import { TotpField } from '../../../components/ui/totp-field.tsx';
import { useSetupTwoFactor, useVerifyTwoFactor } from '../../../auth/two-factor-api.ts';

const grouped = (secret: string) => secret.match(/.{1,4}/g)?.join(' ') ?? secret;

/**
 * Step 2: two-factor authentication for the new admin, then the recovery codes, shown once. `required`: the server
 * refuses every admin power to an admin without 2FA (ADMIN_2FA_REQUIRED), so it can be put off, not skipped.
 */
export function TwoFactorStep({ required, onDone }: { required: boolean; onDone: () => void }) {
  const setup = useSetupTwoFactor();
  const verify = useVerifyTwoFactor();
  const [code, setCode] = useState('');
  const [missing, setMissing] = useState(false);

  if (verify.isSuccess) {
    const codes = verify.data.recovery_codes;
    return (
      <div className="setup-step">
        <Message tone="success">
          2FA is on. From your next sign-in you will be asked for a code from your authenticator app.
        </Message>
        <h2>Your recovery codes</h2>
        <p>
          Each signs you in once if you lose your authenticator app. Keep them away from your phone.{' '}
          <strong>They are shown only now.</strong>
        </p>
        <ul className="recovery-code-list" aria-label="Recovery codes">
          {codes.map((c) => (
            <li key={c}>
              <code>{c}</code>
            </li>
          ))}
        </ul>
        <div className="button-row">
          <CopyButton text={codes.join('\n')} label="Copy codes" />
          <Button onClick={onDone}>I have saved my codes</Button>
        </div>
      </div>
    );
  }

  if (!setup.data) {
    return (
      <div className="setup-step">
        <h2>Protect the admin account with 2FA</h2>
        {required ? (
          <p>
            <strong>Required on this server</strong>: until 2FA is on, you can sign in and look around the console but
            use no admin power (verifying a payment, releasing, refunding, managing users). Each power then asks for a
            code from your authenticator app.
          </p>
        ) : (
          <p>
            Recommended now: an admin holds the keys to every escrow, and the console asks for a 2FA code before each
            admin action once it is on.
          </p>
        )}
        {setup.isError && <Message tone="error">{messageOf(setup.error, 'Failed to setup 2FA')}</Message>}
        <div className="button-row">
          <Button onClick={() => setup.mutate()} busy={setup.isPending}>
            Set up 2FA now
          </Button>
          <Button variant="ghost" onClick={onDone} disabled={setup.isPending}>
            Later, from my profile
          </Button>
        </div>
        {required && (
          <p className="small muted">
            Later: <Link to="/profile">your profile</Link> has the same set-up, under Two-factor authentication.
          </p>
        )}
      </div>
    );
  }

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    if (!code) return setMissing(true);
    setMissing(false);
    verify.mutate(code);
  };
  return (
    <div className="setup-step">
      <h2>Protect the admin account with 2FA</h2>
      <ol className="setup-steps">
        <li>
          <p>Scan this QR code with an authenticator app (Aegis, Google Authenticator, 1Password, ...).</p>
          <img
            className="totp-qr"
            src={setup.data.qr_code_url}
            alt="QR code to add this account to an authenticator app"
            width={200}
            height={200}
          />
        </li>
        <li>
          <p>Or type this key into the app (time-based, 6 digits, 30 seconds):</p>
          <p className="totp-secret">
            <code>{grouped(setup.data.secret)}</code>
          </p>
          <CopyButton text={setup.data.secret} label="Copy key" />
        </li>
        <li>
          <form className="form" onSubmit={submit} noValidate>
            <TotpField
              value={code}
              onChange={setCode}
              required
              label="Code from the app"
              hint="Enter the 6-digit code the app shows now."
              error={missing ? 'Enter the code from your authenticator app' : undefined}
            />
            {verify.isError && <Message tone="error">{messageOf(verify.error, 'Invalid 2FA code')}</Message>}
            <Button type="submit" busy={verify.isPending}>
              Verify and turn on 2FA
            </Button>
          </form>
        </li>
      </ol>
    </div>
  );
}
