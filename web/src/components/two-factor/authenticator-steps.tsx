import { type TwoFactorSetup, useVerifyTwoFactor } from '../../auth/two-factor-api.ts';
import { CopyButton } from '../ui/copy-button.tsx';
import { CodeFromAppForm } from './code-from-app-form.tsx';
import './two-factor.css';

/** The secret in groups of four, easier to type into an app by hand. */
const grouped = (secret: string) => secret.match(/.{1,4}/g)?.join(' ') ?? secret;

/**
 * Turning 2FA on once a secret is drawn: scan (or type) it into an authenticator app, then prove it works with a code
 * from the app. The profile and the first admin's set-up both show these steps; `onCancel` adds a way back.
 */
export function AuthenticatorSteps({
  setup,
  onEnabled,
  onCancel,
}: {
  setup: TwoFactorSetup;
  onEnabled: (codes: string[]) => void;
  onCancel?: () => void;
}) {
  const verify = useVerifyTwoFactor();

  return (
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
        <CodeFromAppForm
          hint="Enter the 6-digit code the app shows now."
          submitLabel="Verify and turn on 2FA"
          send={(code) => verify.mutate(code, { onSuccess: (answer) => onEnabled(answer.recovery_codes) })}
          pending={verify.isPending}
          error={verify.error}
          failure="Invalid 2FA code"
          {...(onCancel ? { onCancel } : {})}
        />
      </li>
    </ol>
  );
}
