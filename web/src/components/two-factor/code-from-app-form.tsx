import { messageOf } from '../../api/client.ts';
import { Button } from '../ui/button.tsx';
import { Message } from '../ui/message.tsx';
import { TotpField } from '../ui/totp-field.tsx';
import { useCodeForm } from './use-code-form.ts';

/**
 * The form that asks for the code the authenticator app shows now and sends it: the field (which says so when it is
 * left empty), the server's refusal, the submit button and, with `onCancel`, a way back. Turning 2FA on and making
 * new recovery codes both ask this way.
 */
export function CodeFromAppForm({
  hint,
  submitLabel,
  send,
  pending,
  error,
  failure,
  onCancel,
}: {
  hint: string;
  submitLabel: string;
  send: (code: string) => void;
  pending: boolean;
  /** The refusal of the last try, if it failed; `failure` is said when it carries no words of its own. */
  error: unknown;
  failure: string;
  onCancel?: () => void;
}) {
  const { code, setCode, missing, submit } = useCodeForm(send);
  return (
    <form className="form" onSubmit={submit} noValidate>
      <TotpField
        value={code}
        onChange={setCode}
        required
        label="Code from the app"
        hint={hint}
        error={missing ? 'Enter the code from your authenticator app' : undefined}
      />
      {error ? <Message tone="error">{messageOf(error, failure)}</Message> : null}
      <div className="button-row">
        <Button type="submit" busy={pending}>
          {submitLabel}
        </Button>
        {onCancel && (
          <Button variant="ghost" onClick={onCancel} disabled={pending}>
            Cancel
          </Button>
        )}
      </div>
    </form>
  );
}
