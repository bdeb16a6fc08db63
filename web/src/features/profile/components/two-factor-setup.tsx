import { type TwoFactorSetup as Setup } from '../../../auth/two-factor-api.ts';
import { AuthenticatorSteps } from '../../../components/two-factor/authenticator-steps.tsx';
import { useFocusOnMount } from '../../../components/ui/focus-on-mount.ts';

/** Step 2 of turning 2FA on from the profile: the authenticator steps, with a way back. */
export function TwoFactorSetup({
  setup,
  onEnabled,
  onCancel,
}: {
  setup: Setup;
  onEnabled: (codes: string[]) => void;
  onCancel: () => void;
}) {
  const heading = useFocusOnMount<HTMLHeadingElement>();
  return (
    <div className="two-factor-setup">
      <h3 ref={heading} tabIndex={-1}>
        Add this account to your authenticator app
      </h3>
      <AuthenticatorSteps setup={setup} onEnabled={onEnabled} onCancel={onCancel} />
    </div>
  );
}
