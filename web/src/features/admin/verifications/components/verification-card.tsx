import { Button } from '../../../../components/ui/button.tsx';
import { CopyButton } from '../../../../components/ui/copy-button.tsx';
import { formatAge, formatBtc, formatDateTime, formatUsd } from '../../../../lib/format.ts';
import { EscrowLink } from '../../shared/escrow-link.tsx';
import { EvidenceList } from '../../shared/evidence-list.tsx';
import type { PendingVerification } from '../api/get-pending-verifications.ts';
import { EmailAddress } from '../../../../components/ui/email-address.tsx';

/** One marked payment: what the deal is, how much to look for at which address, what the buyer says and sent. */
export function VerificationCard({
  item,
  onVerify,
  onReject,
}: {
  item: PendingVerification;
  onVerify: () => void;
  onReject: () => void;
}) {
  const { escrow } = item;
  return (
    <li className="card verification">
      <div className="verification-head">
        <h3>{escrow.product_service}</h3>
        <EscrowLink id={escrow.id}>Escrow {escrow.id.slice(0, 8)}</EscrowLink>
      </div>
      <p className="muted">{escrow.description}</p>
      <dl className="facts">
        <dt>Amount</dt>
        <dd>
          <strong className="mono">{formatBtc(escrow.amount_sats)}</strong> ({formatUsd(escrow.total_usd)})
        </dd>
        <dt>Assigned address</dt>
        <dd className="address-line">
          <span className="mono break">{escrow.assigned_address}</span>
          {escrow.assigned_address && (
            <CopyButton text={escrow.assigned_address} label="Copy address" variant="ghost" />
          )}
        </dd>
        <dt>Parties</dt>
        <dd className="break">
          Buyer <EmailAddress value={escrow.buyer_email} />, seller <EmailAddress value={escrow.seller_email} />
        </dd>
        <dt>Marked paid</dt>
        <dd>
          {formatAge(item.marked_at)} ({formatDateTime(item.marked_at)})
        </dd>
        <dt>Buyer's notes</dt>
        <dd>{item.notes || <span className="muted">none</span>}</dd>
      </dl>
      <h4>Evidence</h4>
      <EvidenceList evidence={item.evidence} showNotes={false} />
      <div className="row-actions">
        <Button onClick={onVerify}>Verify</Button>
        <Button variant="danger" onClick={onReject}>
          Reject
        </Button>
      </div>
    </li>
  );
}
