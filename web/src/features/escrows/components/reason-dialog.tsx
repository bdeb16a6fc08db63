import type { UseMutationResult } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { messageOf } from '../../../api/client.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Field } from '../../../components/ui/field.tsx';
import { Message } from '../../../components/ui/message.tsx';
import { Modal } from '../../../components/ui/modal.tsx';

interface ReasonDialogProps {
  /** The step, sent with the reason (opening a dispute, declining the terms). */
  step: UseMutationResult<unknown, Error, { reason: string }>;
  title: string;
  description: string;
  /** What the reason should say; the other party and the admins read it. */
  hint: string;
  maxLength: number;
  /** Said when the reason is left empty. */
  missing: string;
  /** Said when the server refuses, unless it says why. */
  failure: string;
  submitLabel: string;
  cancelLabel: string;
  onOpenChange: (open: boolean) => void;
  onDone: () => void;
}

/** A step a party may take only with a reason: the reason is required, and the step is a serious one (danger). */
export function ReasonDialog({
  step,
  title,
  description,
  hint,
  maxLength,
  missing,
  failure,
  submitLabel,
  cancelLabel,
  onOpenChange,
  onDone,
}: ReasonDialogProps) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);

  // The step outlives the dialog: a refusal is forgotten when the dialog closes, not shown on the next opening.
  const close = () => {
    step.reset();
    onOpenChange(false);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!reason.trim()) return setError(missing);
    setError(null);
    step.mutate({ reason: reason.trim() }, { onSuccess: onDone });
  };

  return (
    <Modal open onOpenChange={(next) => !step.isPending && !next && close()} title={title} description={description}>
      <form className="form" onSubmit={submit} noValidate>
        {step.isError && <Message tone="error">{messageOf(step.error, failure)}</Message>}
        <Field label="Reason" required error={error ?? undefined} hint={hint}>
          <textarea rows={4} maxLength={maxLength} value={reason} onChange={(event) => setReason(event.target.value)} />
        </Field>
        <div className="dialog-actions">
          <Button variant="secondary" onClick={close} disabled={step.isPending}>
            {cancelLabel}
          </Button>
          <Button type="submit" variant="danger" busy={step.isPending}>
            {submitLabel}
          </Button>
        </div>
      </form>
    </Modal>
  );
}
