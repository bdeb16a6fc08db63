import { Download } from 'lucide-react';
import { Link } from 'react-router-dom';
import { Button } from '../../../components/ui/button.tsx';
import { Message } from '../../../components/ui/message.tsx';
import { QueryState } from '../../../components/ui/query-state.tsx';
import { saveBlob } from '../../../lib/save-blob.ts';
import { useEscrowProof } from '../api/use-escrow-proof.ts';
import { LogConsistencyNotice } from './log-consistency-notice.tsx';
import '../transparency.css';

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/**
 * An escrow's proof in the public log: the browser checks the bundle itself (each event's hash, its inclusion in
 * the signed checkpoint, the checkpoint's signature) and offers the same file for download to check offline.
 */
export function EscrowProofCard({ escrowId, updatedAt }: { escrowId: string; updatedAt: string }) {
  const proof = useEscrowProof(escrowId, updatedAt);
  return (
    <section className="card tlog-card" aria-labelledby="tlog-proof-heading">
      <h2 id="tlog-proof-heading">Proof in the public log</h2>
      <p className="small">
        Every event of this escrow is a leaf of the service's public transparency log. Your browser checks it against
        the log's signed checkpoint, so you need not take the operator's word.
      </p>
      <QueryState
        query={proof}
        loadingLabel="Checking this escrow's proof..."
        errorFallback="This escrow's proof cannot be loaded right now."
      >
        {({ bundle, check }) => (
          <>
            {bundle.events.length === 0 ? (
              <Message tone="info">
                No signed checkpoint covers this escrow's events yet: the next one, within a minute, will. Check again
                then.
              </Message>
            ) : check.ok ? (
              <Message tone="success">
                Checked against checkpoint {check.size}: {plural(check.events, 'event')} of this escrow are in the log,
                each hash matches its content, and the checkpoint is signed by the log's key.
                {bundle.pending_events > 0 &&
                  ` ${plural(bundle.pending_events, 'later event')} will be in the next checkpoint.`}
              </Message>
            ) : (
              <div className="message message-error tlog-warning" role="alert">
                <h3>This escrow's proof does not check</h3>
                <p>{check.reason[0]!.toUpperCase() + check.reason.slice(1)}.</p>
                <p>Download the proof and keep it: it is evidence of what the service showed you.</p>
              </div>
            )}
            <div className="tlog-actions">
              <Button
                variant="secondary"
                onClick={() =>
                  saveBlob(
                    new Blob([`${JSON.stringify(bundle, null, 2)}\n`], { type: 'application/json' }),
                    `escrow-${escrowId}-proof.json`,
                  )
                }
              >
                <Download size={16} aria-hidden="true" /> Download proof
              </Button>
              <Link to="/transparency">How to check it yourself</Link>
            </div>
          </>
        )}
      </QueryState>
      <LogConsistencyNotice />
    </section>
  );
}
