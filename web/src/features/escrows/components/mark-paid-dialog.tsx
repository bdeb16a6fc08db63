import { type FormEvent, useState } from 'react';
import { messageOf } from '../../../api/client.ts';
import { Button } from '../../../components/ui/button.tsx';
import { EvidenceFileField } from '../../../components/ui/evidence-file-field.tsx';
import { Field } from '../../../components/ui/field.tsx';
import { Message } from '../../../components/ui/message.tsx';
import { Modal } from '../../../components/ui/modal.tsx';
import { useEvidenceFile } from '../../../hooks/use-evidence-file.ts';
import { formatBtc } from '../../../lib/format.ts';
import { useMarkPaid } from '../api/mark-paid.ts';
import type { Escrow } from '../api/types.ts';

interface MarkPaidDialogProps {
  escrow: Pick<Escrow, 'id' | 'amount_sats' | 'assigned_address'>;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onDone: () => void;
}

/** The buyer says the payment is sent: notes, and optionally a screenshot or receipt the admin can check. */
export function MarkPaidDialog({ escrow, open, onOpenChange, onDone }: MarkPaidDialogProps) {
  const [notes, setNotes] = useState('');
  const evidence = useEvidenceFile();
  const markPaid = useMarkPaid(escrow.id);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!evidence.validate()) return;
    markPaid.mutate({ notes: notes.trim(), file: evidence.file }, { onSuccess: onDone });
  };

  return (
    <Modal
      open={open}
      onOpenChange={(next) => !markPaid.isPending && onOpenChange(next)}
      title="Mark as Paid"
      description={`Tell the admins you sent ${formatBtc(escrow.amount_sats)} to ${escrow.assigned_address ?? 'the payment address'}.`}
    >
      <form className="form" onSubmit={submit} noValidate>
        {markPaid.isError && <Message tone="error">{messageOf(markPaid.error, 'Failed to mark as paid')}</Message>}
        <Field label="Notes" hint="For example the transaction id, the time you sent it, or the wallet you used.">
          <textarea rows={3} maxLength={5000} value={notes} onChange={(event) => setNotes(event.target.value)} />
        </Field>
        <EvidenceFileField label="Proof of payment (optional)" what="A screenshot or receipt" evidence={evidence} />
        <div className="dialog-actions">
          <Button variant="secondary" onClick={() => onOpenChange(false)} disabled={markPaid.isPending}>
            Cancel
          </Button>
          <Button type="submit" busy={markPaid.isPending}>
            Mark as Paid
          </Button>
        </div>
      </form>
    </Modal>
  );
}
