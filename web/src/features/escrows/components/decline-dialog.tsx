import { type FormEvent, useState } from 'react';
import { messageOf } from '../../../api/client.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Field } from '../../../components/ui/field.tsx';
import { Message } from '../../../components/ui/message.tsx';
import { Modal } from '../../../components/ui/modal.tsx';
import { useDecline } from '../api/decline.ts';

interface DeclineDialogProps {
  escrowId: string;
  /** Whether money was already sent: a decline then becomes a refund the admins execute. */
  paid: boolean;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onDone: () => void;
}

/** Decline the terms: the reason is required and read by the other party (and the admins, if money must go back). */
export function DeclineDialog({ escrowId, paid, open, onOpenChange, onDone }: DeclineDialogProps) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const decline = useDecline(escrowId);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!reason.trim()) return setError('Please give the reason for declining');
    setError(null);
    decline.mutate({ reason: reason.trim() }, { onSuccess: onDone });
  };

  return (
    <Modal
      open={open}
      onOpenChange={(next) => !decline.isPending && onOpenChange(next)}
      title="Decline the terms"
      description={
        paid
          ? 'The buyer has already paid: declining asks the admins to refund the money to the buyer.'
          : 'Declining cancels the escrow for both of you. Nobody should pay to its address afterwards.'
      }
    >
      <form className="form" onSubmit={submit} noValidate>
        {decline.isError && <Message tone="error">{messageOf(decline.error, 'Failed to decline')}</Message>}
        <Field label="Reason" required error={error ?? undefined} hint="What you cannot accept: the other party reads this.">
          <textarea rows={4} maxLength={1000} value={reason} onChange={(event) => setReason(event.target.value)} />
        </Field>
        <div className="dialog-actions">
          <Button variant="secondary" onClick={() => onOpenChange(false)} disabled={decline.isPending}>
            Keep it
          </Button>
          <Button type="submit" variant="danger" busy={decline.isPending}>
            Decline
          </Button>
        </div>
      </form>
    </Modal>
  );
}
