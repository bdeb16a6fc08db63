import { agreedSettlement } from '../../../../lib/escrow-split.ts';
import { formatBtc } from '../../../../lib/format.ts';
import { useResetState } from '../../../../hooks/use-reset-state.ts';
import { ActionDialog } from '../../shared/action-dialog.tsx';
import { txidRefusal } from '../../shared/txid.ts';
import { TxidField } from '../../shared/txid-field.tsx';
import type { AdminEscrow } from '../api/get-escrow.ts';
import { useSettleEscrow } from '../api/settle-escrow.ts';

/**
 * Pays out a settlement both parties agreed to, without a dispute: shows what each side gets and where, as the
 * parties agreed it, and sends those addresses so a change since the dialog opened is refused, not paid.
 */
export function SettleDialog({
  escrow,
  onClose,
  onDone,
}: {
  escrow: AdminEscrow | null;
  onClose: () => void;
  onDone: (message: string) => void;
}) {
  const [txid, setTxid] = useResetState(escrow?.id, () => '');
  const settle = useSettleEscrow();
  const agreed = escrow ? agreedSettlement(escrow) : null;
  return (
    <ActionDialog
      open={escrow !== null}
      onOpenChange={(open) => !open && onClose()}
      title={agreed?.kind === 'split' ? 'Pay out the agreed split?' : 'Pay out the agreed refund?'}
      description="Both parties agreed to it. Send the bitcoin first, then record it here. This cannot be undone."
      confirmLabel="Pay out as agreed"
      tone="danger"
      fallback="Failed to pay out the settlement"
      check={() => txidRefusal(txid)}
      run={async (totp_code) => {
        const e = escrow!;
        await settle.mutateAsync({
          escrowId: e.id,
          txid,
          expected_address: e.payout_address ?? '',
          expected_refund_address: e.refund_address ?? '',
          totp_code,
        });
        return 'Settlement paid out';
      }}
      onDone={onDone}
    >
      {escrow && agreed && (
        <dl className="facts">
          <dt>Seller gets</dt>
          <dd className="mono">
            <strong>{formatBtc(agreed.seller_sats ?? 0)}</strong>{' '}
            {agreed.seller_sats ? <span className="break">to {escrow.payout_address}</span> : null}
          </dd>
          <dt>Buyer gets</dt>
          <dd className="mono">
            <strong>{formatBtc(agreed.buyer_sats ?? 0)}</strong>{' '}
            <span className="break">to {escrow.refund_address}</span>
          </dd>
          <dt>Fee kept</dt>
          <dd className="mono">
            {formatBtc(escrow.amount_sats - (agreed.seller_sats ?? 0) - (agreed.buyer_sats ?? 0))}
          </dd>
          <dt>Held in escrow</dt>
          <dd className="mono">{formatBtc(escrow.amount_sats)}</dd>
        </dl>
      )}
      <TxidField value={txid} onChange={setTxid} />
    </ActionDialog>
  );
}
