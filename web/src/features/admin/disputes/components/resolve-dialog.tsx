import { Field } from '../../../../components/ui/field.tsx';
import { Message } from '../../../../components/ui/message.tsx';
import { type AgreedSettlement, agreedSettlement } from '../../../../lib/escrow-split.ts';
import { formatBtc } from '../../../../lib/format.ts';
import type { AdminEscrow } from '../../escrows/api/get-escrow.ts';
import { moneyOf } from '../../escrows/components/money-dialog.tsx';
import { ActionDialog } from '../../shared/action-dialog.tsx';
import { txidRefusal } from '../../shared/txid.ts';
import { TxidField } from '../../shared/txid-field.tsx';
import { useResetState } from '../../../../hooks/use-reset-state.ts';
import type { Dispute } from '../api/get-disputes.ts';
import { type Resolution, useResolveDispute } from '../api/resolve-dispute.ts';

/** What one party gets and the address it goes to, or that they have set none yet. */
function Share({ side, sats, escrow }: { side: 'seller' | 'buyer'; sats: number; escrow: AdminEscrow }) {
  const seller = side === 'seller';
  const address = seller ? escrow.payout_address : escrow.refund_address;
  const proven = seller ? escrow.payout_address_proven : escrow.refund_address_proven;
  return (
    <>
      <dt>{seller ? 'Seller' : 'Buyer'} gets</dt>
      <dd className="mono">
        <strong>{formatBtc(sats)}</strong> to{' '}
        <span className="break">{address ?? `no ${seller ? 'payout' : 'refund'} address set`}</span>
        {address && proven && <span className="small"> (proven by its signature)</span>}
      </dd>
    </>
  );
}

function Split({
  escrow,
  resolution,
  percent,
}: {
  escrow: AdminEscrow;
  resolution: Exclude<Resolution, ''>;
  percent: number;
}) {
  const money = moneyOf(escrow, resolution, resolution === 'split' ? percent : 100);
  return (
    <dl className="facts" aria-live="polite">
      {money.seller_sats > 0 && <Share side="seller" sats={money.seller_sats} escrow={escrow} />}
      {money.buyer_sats > 0 && <Share side="buyer" sats={money.buyer_sats} escrow={escrow} />}
      <dt>Fee kept</dt>
      <dd className="mono">{formatBtc(money.fee_sats)}</dd>
    </dl>
  );
}

/** How the parties' agreement reads in the dialog: "a split, 60% to the seller" or "a full refund". */
const agreementWords = (agreed: AgreedSettlement) =>
  agreed.kind === 'split' ? `a split, ${agreed.seller_percent}% to the seller` : 'a full refund';

/**
 * Resolve a dispute: an outcome (required) and how the money goes, the satoshis and addresses shown before confirming.
 * When both parties agreed to a refund or split (contract 7.5) the dispute is resolved as agreed: the resolution is
 * theirs, not chosen here, and the outcome may be left out (the server asks for none and refuses another one).
 */
export function ResolveDialog({
  dispute,
  escrow,
  onClose,
  onDone,
}: {
  dispute: Dispute | null;
  escrow: AdminEscrow | null;
  onClose: () => void;
  onDone: (message: string) => void;
}) {
  const key = dispute?.id;
  const [outcome, setOutcome] = useResetState(key, () => '');
  const [chosen, setResolution] = useResetState<Resolution>(key, () => '');
  const [percent, setPercent] = useResetState(key, () => '50');
  const [txid, setTxid] = useResetState(key, () => '');
  const resolve = useResolveDispute();
  const agreed = escrow ? agreedSettlement(escrow) : null;
  const resolution: Resolution = agreed ? agreed.kind : chosen;
  const sellerPercent = agreed ? (agreed.seller_percent ?? 100) : Number(percent);
  const percentOk = Number.isInteger(sellerPercent) && sellerPercent >= 1 && sellerPercent <= 99;
  const check = () => {
    if (!agreed && !outcome.trim()) return 'Write the outcome (both parties are told)';
    if (resolution === 'split' && !percentOk) return "The seller's share must be a whole percent from 1 to 99";
    return txidRefusal(txid);
  };
  return (
    <ActionDialog
      open={dispute !== null && escrow !== null}
      onOpenChange={(open) => !open && onClose()}
      title="Resolve this dispute"
      description="Both parties are told the outcome. Moving money cannot be undone: send the bitcoin first, then record it here."
      confirmLabel={agreed ? 'Pay out as agreed' : 'Resolve dispute'}
      tone={resolution ? 'danger' : 'primary'}
      fallback="Failed to resolve dispute"
      check={check}
      run={async (totp_code) => {
        await resolve.mutateAsync({
          disputeId: dispute!.id,
          outcome,
          resolution,
          seller_percent: sellerPercent,
          txid,
          expected_address: (resolution === 'refund' ? escrow?.refund_address : escrow?.payout_address) ?? '',
          expected_refund_address: escrow?.refund_address ?? '',
          totp_code,
        });
        return 'Dispute resolved';
      }}
      onDone={onDone}
    >
      {agreed && (
        <Message tone="info">
          Both parties agreed to {agreementWords(agreed)}. The dispute is resolved as they agreed; no other resolution
          can be chosen.
        </Message>
      )}
      <Field
        label="Outcome"
        required={!agreed}
        {...(agreed ? { hint: 'Optional: the agreement is the outcome both parties are told.' } : {})}
      >
        <textarea rows={3} value={outcome} onChange={(e) => setOutcome(e.target.value)} maxLength={5000} />
      </Field>
      {!agreed && (
        <Field label="Resolution">
          <select value={chosen} onChange={(e) => setResolution(e.target.value as Resolution)}>
            <option value="">None: back to where it was, no money moves</option>
            <option value="release">Release to the seller</option>
            <option value="refund">Refund the buyer</option>
            <option value="split">Split between them</option>
          </select>
        </Field>
      )}
      {!agreed && resolution === 'split' && (
        <Field
          label="Seller's share (percent, 1 to 99)"
          error={percentOk ? undefined : 'Enter a whole number from 1 to 99'}
        >
          <input type="number" min={1} max={99} step={1} value={percent} onChange={(e) => setPercent(e.target.value)} />
        </Field>
      )}
      {resolution && escrow && (resolution !== 'split' || percentOk) && (
        <Split escrow={escrow} resolution={resolution} percent={sellerPercent} />
      )}
      {resolution && <TxidField value={txid} onChange={setTxid} />}
    </ActionDialog>
  );
}
