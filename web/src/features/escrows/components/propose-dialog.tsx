import { type FormEvent, useState } from 'react';
import { displayUsd } from '../../../../../domain/money.ts';
import { messageOf } from '../../../api/client.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Field } from '../../../components/ui/field.tsx';
import { Message } from '../../../components/ui/message.tsx';
import { Modal } from '../../../components/ui/modal.tsx';
import { WholeNumberInput } from '../../../components/ui/whole-number-input.tsx';
import { formatBtc } from '../../../lib/format.ts';
import { PROPOSAL_KINDS, type ProposalKind, type ProposeInput, usePropose } from '../api/proposals.ts';
import type { Escrow } from '../api/types.ts';
import { KIND_LABELS, splitShares } from '../model/proposal-terms.ts';

const NOTE_MAX = 2000;
const whole = (text: string, min: number, max: number) =>
  /^\d+$/.test(text.trim()) && Number(text) >= min && Number(text) <= max;

interface ProposeDialogProps {
  escrow: Pick<Escrow, 'id' | 'amount_sats' | 'amount_usd' | 'escrow_fee' | 'total_usd'>;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onDone: () => void;
}

/** Propose a settlement to the other party: they accept or decline it with one click. */
export function ProposeDialog({ escrow, open, onOpenChange, onDone }: ProposeDialogProps) {
  const [kind, setKind] = useState<ProposalKind>('split');
  const [percent, setPercent] = useState('50');
  const [days, setDays] = useState('7');
  const [note, setNote] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const propose = usePropose(escrow.id);
  const percentOk = whole(percent, 1, 99);
  const daysOk = whole(days, 1, 30);
  const extension = kind === 'extend_deadline' || kind === 'extend_inspection';
  const shares = kind === 'split' && percentOk ? splitShares(escrow, Number(percent)) : null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    if ((kind === 'split' && !percentOk) || (extension && !daysOk)) return;
    const input: ProposeInput = { kind };
    if (kind === 'split') input.seller_percent = Number(percent);
    if (extension) input.days = Number(days);
    if (note.trim()) input.note = note.trim();
    propose.mutate(input, { onSuccess: onDone });
  };

  return (
    <Modal
      open={open}
      onOpenChange={(next) => !propose.isPending && onOpenChange(next)}
      title="Propose a settlement"
      description="The other party accepts or declines. A refund or split they accept is then paid out by an admin."
    >
      <form className="form" onSubmit={submit} noValidate>
        {propose.isError && <Message tone="error">{messageOf(propose.error, 'Failed to make the proposal')}</Message>}
        <Field label="What do you propose?" required>
          <select value={kind} onChange={(event) => setKind(event.target.value as ProposalKind)}>
            {PROPOSAL_KINDS.map((value) => (
              <option key={value} value={value}>
                {KIND_LABELS[value]}
              </option>
            ))}
          </select>
        </Field>
        {kind === 'split' && (
          <Field
            label="Seller's share (%)"
            required
            error={submitted && !percentOk ? "The seller's share must be a whole percent from 1 to 99" : undefined}
          >
            <WholeNumberInput min={1} max={99} value={percent} onChange={(event) => setPercent(event.target.value)} />
          </Field>
        )}
        {shares && (
          <p className="proposal-shares" aria-live="polite">
            The seller gets <strong>{formatBtc(shares.seller_sats)}</strong> ({displayUsd(shares.seller_cents)}), the
            buyer gets back <strong>{formatBtc(shares.buyer_sats)}</strong> ({displayUsd(shares.buyer_cents)}). The
            escrow fee is kept.
          </p>
        )}
        {extension && (
          <Field
            label="By how many days?"
            required
            error={submitted && !daysOk ? 'The days must be a whole number from 1 to 30' : undefined}
          >
            <WholeNumberInput min={1} max={30} value={days} onChange={(event) => setDays(event.target.value)} />
          </Field>
        )}
        <Field label="Note" hint="Optional: why, and anything the other party should know.">
          <textarea rows={3} maxLength={NOTE_MAX} value={note} onChange={(event) => setNote(event.target.value)} />
        </Field>
        <div className="dialog-actions">
          <Button variant="secondary" onClick={() => onOpenChange(false)} disabled={propose.isPending}>
            Cancel
          </Button>
          <Button type="submit" busy={propose.isPending}>
            Send proposal
          </Button>
        </div>
      </form>
    </Modal>
  );
}
