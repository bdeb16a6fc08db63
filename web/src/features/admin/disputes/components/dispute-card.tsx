import { ConversationPanel } from '../../../../components/conversation/conversation-panel.tsx';
import { Button } from '../../../../components/ui/button.tsx';
import { StatusBadge } from '../../../../components/ui/status-badge.tsx';
import { agreedSettlement } from '../../../../lib/escrow-split.ts';
import { formatBtc, formatDateTime, formatUsd } from '../../../../lib/format.ts';
import { useEscrowHistory } from '../../escrows/api/get-escrow-history.ts';
import { type AdminEscrow, useEscrow } from '../../escrows/api/get-escrow.ts';
import { EscrowLink } from '../../shared/escrow-link.tsx';
import { type Evidence, EvidenceList } from '../../shared/evidence-list.tsx';
import type { Dispute } from '../api/get-disputes.ts';
import { EmailAddress } from '../../../../components/ui/email-address.tsx';

/** The payment marks' notes and files, from the escrow's log (what the buyer said they paid, and with what proof). */
function MarkEvidence({ escrowId }: { escrowId: string }) {
  const history = useEscrowHistory(escrowId);
  const marks = (history.data ?? []).filter((h) => h.type === 'PaymentMarked');
  if (history.isPending) return null;
  if (marks.length === 0) return <p className="small muted">No payment was marked.</p>;
  return (
    <>
      {marks.map((m) => (
        <div key={m.position} className="small">
          <p>
            Payment marked {formatDateTime(m.occurred_at)}: {String(m.data.notes || 'no notes')}
          </p>
          <EvidenceList evidence={(m.data.evidence ?? []) as Evidence[]} />
        </div>
      ))}
    </>
  );
}

const RESOLUTION: Record<string, string> = {
  release: 'released to the seller',
  refund: 'refunded to the buyer',
  split: 'split',
};

/** One dispute: the escrow, both parties, who opened it and why, the evidence, and its outcome or the Resolve button. */
export function DisputeCard({ dispute, onResolve }: { dispute: Dispute; onResolve: (escrow: AdminEscrow) => void }) {
  const escrow = useEscrow(dispute.escrow_id);
  const e = escrow.data;
  const agreed = e ? agreedSettlement(e) : null;
  return (
    <li className="card verification">
      <div className="verification-head">
        <h3>{e?.product_service ?? 'Escrow'}</h3>
        <span className={`badge ${dispute.status === 'open' ? 'badge-disputed' : 'badge-released'}`}>
          {dispute.status}
        </span>
      </div>
      <dl className="facts">
        <dt>Escrow</dt>
        <dd>
          <EscrowLink id={dispute.escrow_id}>Escrow {dispute.escrow_id.slice(0, 8)}</EscrowLink>{' '}
          {e && <StatusBadge status={e.status} />}
        </dd>
        {e && (
          <>
            <dt>Amount</dt>
            <dd>
              <span className="mono">{formatBtc(e.amount_sats)}</span> ({formatUsd(e.total_usd)})
            </dd>
            <dt>Buyer</dt>
            <dd className="break">
              <EmailAddress value={e.buyer_email} />
            </dd>
            <dt>Seller</dt>
            <dd className="break">
              <EmailAddress value={e.seller_email} />
            </dd>
          </>
        )}
        <dt>Opened</dt>
        <dd>
          by the {dispute.opened_by_side}, {formatDateTime(dispute.opened_at)}
        </dd>
        <dt>Reason</dt>
        <dd>{dispute.reason}</dd>
        {dispute.status === 'open' && agreed && (
          <>
            <dt>Agreed since</dt>
            <dd>
              {agreed.kind === 'split' ? `A split, ${agreed.seller_percent}% to the seller` : 'A full refund'}: resolve
              to pay it out as agreed
            </dd>
          </>
        )}
        {dispute.status === 'resolved' && (
          <>
            <dt>Outcome</dt>
            <dd>
              {dispute.outcome}
              {dispute.resolution &&
                ` (${RESOLUTION[dispute.resolution]}${dispute.resolution === 'split' ? `: seller ${dispute.seller_percent}%` : ''})`}
              {dispute.resolved_at && `, ${formatDateTime(dispute.resolved_at)}`}
            </dd>
          </>
        )}
      </dl>
      <h4>Evidence</h4>
      <MarkEvidence escrowId={dispute.escrow_id} />
      {e && (
        <ConversationPanel
          escrowId={e.id}
          viewerSide="admin"
          canPost={e.allowed_actions.includes('post_message')}
          headingLevel={4}
          embedded
        />
      )}
      {dispute.status === 'open' && e && (
        <div className="row-actions">
          <Button onClick={() => onResolve(e)}>Resolve</Button>
        </div>
      )}
    </li>
  );
}
