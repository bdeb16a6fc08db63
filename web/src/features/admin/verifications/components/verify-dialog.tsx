import { messageOf } from '../../../../api/client.ts';
import { Button } from '../../../../components/ui/button.tsx';
import { Field } from '../../../../components/ui/field.tsx';
import { Message } from '../../../../components/ui/message.tsx';
import { formatBtc, formatUsd } from '../../../../lib/format.ts';
import { ActionDialog } from '../../shared/action-dialog.tsx';
import { txidRefusal } from '../../shared/txid.ts';
import { TxidField } from '../../shared/txid-field.tsx';
import { useResetState } from '../../../../hooks/use-reset-state.ts';
import type { PendingVerification } from '../api/get-pending-verifications.ts';
import { useVerifyPayment } from '../api/verify-payment.ts';
import {
  hasProof,
  type PaymentProofFields,
  type ProvenPayment,
  useCheckPaymentProof,
} from '../api/check-payment-proof.ts';

const NO_PROOF: PaymentProofFields = { tx_hex: '', txout_proof: '', headers: '', accept_partial: false };
const sameProof = (a: PaymentProofFields, b: PaymentProofFields) =>
  a.tx_hex === b.tx_hex &&
  a.txout_proof === b.txout_proof &&
  a.headers === b.headers &&
  a.accept_partial === b.accept_partial;

/** The hex parts of a proof, each as the admin's node prints it. */
const PROOF_PARTS: { field: 'tx_hex' | 'txout_proof' | 'headers'; label: string; hint?: string }[] = [
  { field: 'tx_hex', label: 'Raw transaction (tx_hex)' },
  { field: 'txout_proof', label: 'Transaction proof (txout_proof)' },
  {
    field: 'headers',
    label: 'Following block headers (headers)',
    hint: '80-byte headers as hex, one after another, each following the one before',
  },
];

/** What a checked proof shows, in words, before the admin confirms. */
function ProofSummary({ proven }: { proven: ProvenPayment }) {
  return (
    <div>
      <Message tone="success">
        Proven on the chain: {proven.confirmations} confirmation{proven.confirmations === 1 ? '' : 's'}, block{' '}
        <span className="mono break">{proven.block_hash}</span>
      </Message>
      <dl className="facts">
        <dt>Transaction</dt>
        <dd className="mono break">{proven.txid}</dd>
        <dt>Arrived</dt>
        <dd className="mono">
          {formatBtc(proven.received_sats)} of {formatBtc(proven.expected_sats)}
          {proven.overpaid_sats > 0 && ` (overpaid by ${formatBtc(proven.overpaid_sats)})`}
          {proven.short_sats > 0 && ` (short by ${formatBtc(proven.short_sats)}: partial payment accepted)`}
        </dd>
        <dt>Work</dt>
        <dd>
          {proven.work_judged
            ? 'Every header meets the minimum work (mainnet)'
            : 'Not judged: on a test network headers prove no work'}
        </dd>
      </dl>
    </div>
  );
}

interface VerifyDialogProps {
  item: PendingVerification | null;
  verified: boolean;
  onClose: () => void;
  onDone: (message: string) => void;
}

/** Verify (with an optional txid) or reject a marked payment, showing the amount and the address it was due at. */
export function VerifyDialog({ item, verified, onClose, onDone }: VerifyDialogProps) {
  const [notes, setNotes] = useResetState(item, () => '');
  const [txid, setTxid] = useResetState(item, () => '');
  const [proof, setProof] = useResetState<PaymentProofFields>(item, () => NO_PROOF);
  const [checked, setChecked] = useResetState<{
    proof: PaymentProofFields;
    proven: ProvenPayment | null;
    error: string | null;
  } | null>(item, () => null);
  const verify = useVerifyPayment();
  const check = useCheckPaymentProof();
  const escrow = item?.escrow;
  const withProof = verified && hasProof(proof);
  const checkedNow = checked && sameProof(checked.proof, proof) ? checked : null;
  const change = (field: keyof PaymentProofFields) => (e: { target: { value: string; checked?: boolean } }) =>
    setProof({ ...proof, [field]: field === 'accept_partial' ? Boolean(e.target.checked) : e.target.value });
  const runCheck = async () => {
    const asked = proof;
    try {
      setChecked({
        proof: asked,
        proven: await check.mutateAsync({ escrowId: escrow!.id, proof: asked }),
        error: null,
      });
    } catch (failure) {
      setChecked({ proof: asked, proven: null, error: messageOf(failure, 'Failed to check the proof') });
    }
  };
  return (
    <ActionDialog
      open={item !== null}
      onOpenChange={(open) => !open && onClose()}
      title={verified ? 'Verify this payment?' : 'Reject this payment?'}
      description={
        verified
          ? 'Only if you saw the full amount arrive at this address on the chain. The escrow becomes funded.'
          : 'The payment mark is cleared; the buyer is told and may mark it again.'
      }
      confirmLabel={verified ? 'Verify payment' : 'Reject payment'}
      tone={verified ? 'primary' : 'danger'}
      fallback="Failed to verify payment"
      check={() => {
        if (!verified) return notes.trim() ? null : 'Say why, for the buyer';
        if (withProof && !checkedNow?.proven)
          return 'Check the proof first: it must prove the payment before you confirm';
        return txidRefusal(txid);
      }}
      run={async (totp_code) => {
        await verify.mutateAsync({
          escrowId: escrow!.id,
          verified,
          notes,
          txid: verified ? txid : '',
          totp_code,
          ...(withProof ? { proof } : {}),
        });
        if (!verified) return 'Payment rejected: the buyer was told';
        return withProof
          ? 'Payment proven and verified: the escrow is funded'
          : 'Payment verified: the escrow is funded';
      }}
      onDone={onDone}
    >
      {escrow && (
        <dl className="facts">
          <dt>Amount due</dt>
          <dd className="mono">
            {formatBtc(escrow.amount_sats)} ({formatUsd(escrow.total_usd)})
          </dd>
          <dt>At address</dt>
          <dd className="mono break">{escrow.assigned_address}</dd>
        </dl>
      )}
      <Field label={verified ? 'Notes' : 'Reason (sent to the buyer)'} required={!verified}>
        <textarea rows={2} value={notes} onChange={(e) => setNotes(e.target.value)} maxLength={5000} />
      </Field>
      {verified && <TxidField value={txid} onChange={setTxid} />}
      {verified && (
        <fieldset className="choice-group">
          <legend>Proof on the chain (optional)</legend>
          <p className="field-hint">
            From your own node: <code>getrawtransaction TXID</code>, <code>gettxoutproof [&quot;TXID&quot;]</code> and
            the headers of the blocks after it (<code>getblockheader HASH false</code>). Without a proof the payment
            shows as checked by an admin.
          </p>
          {PROOF_PARTS.map(({ field, label, hint }) => (
            <Field key={field} label={label} hint={hint}>
              <textarea
                className="mono"
                rows={2}
                value={proof[field]}
                onChange={change(field)}
                spellCheck={false}
                autoComplete="off"
              />
            </Field>
          ))}
          <label className="choice">
            <input type="checkbox" checked={proof.accept_partial} onChange={change('accept_partial')} /> Accept less
            than the amount due (a partial payment)
          </label>
          <div className="actions">
            <Button variant="secondary" onClick={() => void runCheck()} busy={check.isPending} disabled={!withProof}>
              Check proof
            </Button>
          </div>
          {checkedNow?.proven && <ProofSummary proven={checkedNow.proven} />}
          {checkedNow?.error && <Message tone="error">{checkedNow.error}</Message>}
        </fieldset>
      )}
    </ActionDialog>
  );
}
