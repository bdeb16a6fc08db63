import { Field } from './field.tsx';

interface TotpFieldProps {
  value: string;
  onChange: (value: string) => void;
  error?: string | undefined;
  required?: boolean;
  label?: string;
  hint?: string;
}

/** A 6-digit authenticator code (or a recovery code where the server takes one): numeric keypad, one-time-code autofill. */
export function TotpField({
  value,
  onChange,
  error,
  required = false,
  label = '2FA code',
  hint = 'Enter 6-digit code',
}: TotpFieldProps) {
  return (
    <Field label={label} error={error} hint={hint} required={required}>
      <input
        type="text"
        className="totp-input"
        name="totp_code"
        value={value}
        onChange={(event) => onChange(event.target.value.trim())}
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={6}
        spellCheck={false}
      />
    </Field>
  );
}
