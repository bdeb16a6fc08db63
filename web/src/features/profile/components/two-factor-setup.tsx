import { useState } from 'react';
import { messageOf } from '../../../api/client.ts';
import { Button } from '../../../components/ui/button.tsx';
import { CopyButton } from '../../../components/ui/copy-button.tsx';
import { useFocusOnMount } from '../../../components/ui/focus-on-mount.ts';
import { Message } from '../../../components/ui/message.tsx';
import { TotpField } from '../../../components/ui/totp-field.tsx';
import { type TwoFactorSetup as Setup, useVerifyTwoFactor } from '../../../auth/two-factor-api.ts';

/** The secret in groups of four, easier to type into an app by hand. */
const grouped = (secret: string) => secret.match(/.{1,4}/g)?.join(' ') ?? secret;

/** Step 2 of turning 2FA on: scan (or type) the secret, then prove it works with a code from the app. */
export function TwoFactorSetup({
  setup,
  onEnabled,
  onCancel,
}: {
  setup: Setup;
  onEnabled: (codes: string[]) => void;
  onCancel: () => void;
}) {
  const verify = useVerifyTwoFactor();
  const [code, setCode] = useState('');
  const [missing, setMissing] = useState(false);
  const heading = useFocusOnMount<HTMLHeadingElement>();

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    if (!code) return setMissing(true);
    setMissing(false);
    verify.mutate(code, { onSuccess: (answer) => onEnabled(answer.recovery_codes) });
  };

  return (
    <div className="two-factor-setup">
      <h3 ref={heading} tabIndex={-1}>
        Add this account to your authenticator app
      </h3>
      <ol className="setup-steps">
        <li>
          <p>Scan this QR code with an authenticator app (Aegis, Google Authenticator, 1Password, ...).</p>
          <img
            className="totp-qr"
            src={setup.qr_code_url}
            alt="QR code to add this account to an authenticator app"
            width={200}
            height={200}
          />
        </li>
        <li>
          <p>Or type this key into the app (time-based, 6 digits, 30 seconds):</p>
          <p className="totp-secret">
            <code aria-label={`Secret key ${setup.secret.split('').join(' ')}`}>{grouped(setup.secret)}</code>
          </p>
          <CopyButton text={setup.secret} label="Copy key" />
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
            <div className="button-row">
              <Button type="submit" busy={verify.isPending}>
                Verify and turn on 2FA
              </Button>
              <Button variant="ghost" onClick={onCancel} disabled={verify.isPending}>
                Cancel
              </Button>
            </div>
          </form>
        </li>
      </ol>
    </div>
  );
}
