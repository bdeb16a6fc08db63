import { type FormEvent, useState } from 'react';
import { messageOf } from '../../../api/client.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Field } from '../../../components/ui/field.tsx';
import { Message } from '../../../components/ui/message.tsx';
import { Modal } from '../../../components/ui/modal.tsx';
import { useOpenDispute } from '../api/open-dispute.ts';

/** Open Dispute: the reason is required; an admin reads it and decides. */
export function DisputeDialog({ escrowId, open, onOpenChange, onDone }: { escrowId: string; open: boolean; onOpenChange: (open: boolean) => void; onDone: () => void }) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const dispute = useOpenDispute(escrowId);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!reason.trim()) return setError('Please give the reason for the dispute');
    setError(null);
    dispute.mutate({ reason: reason.trim() }, { onSuccess: onDone });
  };

  return (
    <Modal open={open} onOpenChange={(next) => !dispute.isPending && onOpenChange(next)} title="Open Dispute" description="An admin reviews the dispute and decides: release to the seller, refund to the buyer, or a split.">
      <form className="form" onSubmit={submit} noValidate>
        {dispute.isError && <Message tone="error">{messageOf(dispute.error, 'Failed to open dispute')}</Message>}
        <Field label="Reason" required error={error ?? undefined} hint="What went wrong, and what you expect.">
          <textarea rows={4} maxLength={5000} value={reason} onChange={(event) => setReason(event.target.value)} />
        </Field>
        <div className="dialog-actions">
          <Button variant="secondary" onClick={() => onOpenChange(false)} disabled={dispute.isPending}>
            Cancel
          </Button>
          <Button type="submit" variant="danger" busy={dispute.isPending}>
            Open Dispute
          </Button>
        </div>
      </form>
    </Modal>
  );
}
