import { messageOf } from '../../../api/client.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Field } from '../../../components/ui/field.tsx';
import { Message } from '../../../components/ui/message.tsx';
import { useDisableTwoFactor } from '../../../auth/two-factor-api.ts';
import { useCodeForm } from '../../../components/two-factor/use-code-form.ts';

/** Turning 2FA off takes a current code, or a recovery code for someone who lost the app. */
export function DisableTwoFactorForm({ onDisabled }: { onDisabled: (detail: string) => void }) {
  const disable = useDisableTwoFactor();
  const { code, setCode, missing, submit } = useCodeForm((typed) =>
    disable.mutate(typed, { onSuccess: (answer) => onDisabled(answer.detail) }),
  );
  return (
    <form className="form" onSubmit={submit} noValidate aria-labelledby="disable-2fa-heading">
      <h3 id="disable-2fa-heading">Turn off 2FA</h3>
      <Field
        label="2FA code or recovery code"
        required
        hint="The 6-digit code from your authenticator app, or one of your recovery codes."
        error={missing ? 'Enter a code to turn 2FA off' : undefined}
      >
        <input
          type="text"
          className="totp-input totp-input-wide"
          name="totp_code"
          value={code}
          onChange={(e) => setCode(e.target.value.trim())}
          autoComplete="one-time-code"
          maxLength={32}
          spellCheck={false}
        />
      </Field>
      {disable.isError && <Message tone="error">{messageOf(disable.error, 'Failed to disable 2FA')}</Message>}
      <div>
        <Button type="submit" variant="danger" busy={disable.isPending}>
          Disable 2FA
        </Button>
      </div>
    </form>
  );
}
