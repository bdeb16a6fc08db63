import { payout, usdNumberToCents } from '../../../../../../domain/money.ts';
import { Field } from '../../../../components/ui/field.tsx';
import { formatBtc } from '../../../../lib/format.ts';
import { ActionDialog } from '../../shared/action-dialog.tsx';
import { txidRefusal } from '../../shared/txid.ts';
import { TxidField } from '../../shared/txid-field.tsx';
import { useResetState } from '../../../../hooks/use-reset-state.ts';
import type { AdminEscrow } from '../api/get-escrow.ts';
import { useRefundEscrow } from '../api/refund-escrow.ts';
import { useReleaseEscrow } from '../api/release-escrow.ts';

/** The satoshis each side gets, computed by the same code as the server's payout events. */
export const moneyOf = (escrow: AdminEscrow, kind: 'release' | 'refund' | 'split', sellerPercent = 100) =>
  payout(
    kind,
    {
      amount_sats: escrow.amount_sats,
      fee_cents: usdNumberToCents(escrow.escrow_fee),
      total_cents: usdNumberToCents(escrow.total_usd),
    },
    sellerPercent,
  );

/**
 * Release (to the seller) or refund (to the buyer): shows the satoshis and the address they go to, and sends that
 * address as `expected_address`, so a payout address changed after the dialog opened is refused, not paid.
 */
export function MoneyDialog({
  escrow,
  kind,
  onClose,
  onDone,
}: {
  escrow: AdminEscrow | null;
  kind: 'release' | 'refund';
  onClose: () => void;
  onDone: (message: string) => void;
}) {
  const [notes, setNotes] = useResetState(escrow?.id, () => '');
  const [txid, setTxid] = useResetState(escrow?.id, () => '');
  const release = useReleaseEscrow();
  const refund = useRefundEscrow();
  const address = (kind === 'release' ? escrow?.payout_address : escrow?.refund_address) ?? '';
  const money = escrow ? moneyOf(escrow, kind) : null;
  return (
    <ActionDialog
      open={escrow !== null}
      onOpenChange={(open) => !open && onClose()}
      title={kind === 'release' ? 'Release the funds to the seller?' : 'Refund the buyer?'}
      description="Send the bitcoin first, then record it here. This cannot be undone."
      confirmLabel={kind === 'release' ? 'Release funds' : 'Refund buyer'}
      tone="danger"
      fallback={kind === 'release' ? 'Failed to release escrow' : 'Failed to refund escrow'}
      check={() => txidRefusal(txid)}
      run={async (totp_code) => {
        const input = { escrowId: escrow!.id, notes, txid, expected_address: address, totp_code };
        await (kind === 'release' ? release : refund).mutateAsync(input);
        return kind === 'release' ? 'Escrow released' : 'Escrow refunded';
      }}
      onDone={onDone}
    >
      {escrow && money && (
        <dl className="facts">
          <dt>{kind === 'release' ? 'Seller gets' : 'Buyer gets'}</dt>
          <dd className="mono">
            <strong>{formatBtc(kind === 'release' ? money.seller_sats : money.buyer_sats)}</strong>
          </dd>
          <dt>To address</dt>
          <dd className="mono break">
            <span>{address}</span>
            {(kind === 'release' ? escrow.payout_address_proven : escrow.refund_address_proven) && (
              <span className="small"> (proven by its signature)</span>
            )}
          </dd>
          {kind === 'release' && (
            <>
              <dt>Fee kept</dt>
              <dd className="mono">{formatBtc(money.fee_sats)}</dd>
            </>
          )}
          <dt>Held in escrow</dt>
          <dd className="mono">{formatBtc(escrow.amount_sats)}</dd>
        </dl>
      )}
      <Field label="Notes">
        <textarea rows={2} value={notes} onChange={(e) => setNotes(e.target.value)} maxLength={5000} />
      </Field>
      <TxidField value={txid} onChange={setTxid} />
    </ActionDialog>
  );
}
