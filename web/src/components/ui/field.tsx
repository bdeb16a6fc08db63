import { cloneElement, type ReactElement, type ReactNode, useId } from 'react';

interface FieldProps {
  label: string;
  /** The control: an input, select or textarea; it gets the id and the ARIA wiring. */
  children: ReactElement<Record<string, unknown>>;
  error?: string | undefined;
  hint?: ReactNode;
  required?: boolean;
}

/**
 * The shared schemas name the wire field ('full_name is required'), which suits an API answer; on a form the
 * sentence starts like one: 'Full name is required'.
 */
export function readableError(message: string): string {
  return message.replace(/^([a-z]+(?:_[a-z]+)*)\b/, (name) => {
    const words = name.replace(/_/g, ' ');
    return words.charAt(0).toUpperCase() + words.slice(1);
  });
}

/** A labelled form control with its hint and error, wired for screen readers. */
export function Field({ label, children, error, hint, required }: FieldProps) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  return (
    <div className={`field${error ? ' field-invalid' : ''}`}>
      <label htmlFor={id} className={required ? 'required' : undefined}>
        {label}
      </label>
      {cloneElement(children, {
        id,
        'aria-invalid': error ? true : undefined,
        'aria-describedby': [hintId, errorId].filter(Boolean).join(' ') || undefined,
        'aria-required': required || undefined,
      })}
      {hint && (
        <p className="field-hint" id={hintId}>
          {hint}
        </p>
      )}
      {error && (
        <p className="field-error" id={errorId}>
          {readableError(error)}
        </p>
      )}
    </div>
  );
}
