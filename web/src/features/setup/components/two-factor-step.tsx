import { useState } from 'react';
import { Link } from 'react-router-dom';
import { messageOf } from '../../../api/client.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Message } from '../../../components/ui/message.tsx';
import { useSetupTwoFactor } from '../../../auth/two-factor-api.ts';
import { AuthenticatorSteps } from '../../../components/two-factor/authenticator-steps.tsx';
import { RecoveryCodes } from '../../../components/two-factor/recovery-codes.tsx';
import { StepHeading } from './step-heading.tsx';

/**
 * Step 2: two-factor authentication for the new admin, then the recovery codes, shown once. `required`: the server
 * refuses every admin power to an admin without 2FA (ADMIN_2FA_REQUIRED), so it can be put off, not skipped.
 */
export function TwoFactorStep({
  required,
  username,
  onDone,
}: {
  required: boolean;
  username: string;
  onDone: () => void;
}) {
  const setup = useSetupTwoFactor();
  const [codes, setCodes] = useState<string[] | null>(null);

  // Each view has a key of its own: it mounts anew, and its heading takes focus.
  if (codes) {
    return (
      <div className="setup-step" key="codes">
        {/* The codes' own heading takes focus. */}
        <h2>Protect the admin account with 2FA</h2>
        <RecoveryCodes codes={codes} username={username} onDone={onDone} />
      </div>
    );
  }

  if (!setup.data) {
    return (
      <div className="setup-step" key="introduction">
        <StepHeading>Protect the admin account with 2FA</StepHeading>
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

  return (
    <div className="setup-step" key="steps">
      <StepHeading>Protect the admin account with 2FA</StepHeading>
      <AuthenticatorSteps setup={setup.data} onEnabled={setCodes} />
    </div>
  );
}
