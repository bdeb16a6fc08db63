import { StatusBadge } from '../../../../components/ui/status-badge.tsx';
import { QueryState } from '../../../../components/ui/query-state.tsx';
import { formatDateTime } from '../../../../lib/format.ts';
import { type Evidence, EvidenceList } from '../../shared/evidence-list.tsx';
import { type HistoryEntry, useEscrowHistory } from '../api/get-escrow-history.ts';
import { actorName, sentence } from '../../shared/event-words.ts';

/** The event's own fields, as recorded (the evidence list is shown as files). */
function EventData({ data }: { data: Record<string, unknown> }) {
  const entries = Object.entries(data).filter(([key, value]) => key !== 'evidence' && value !== null && value !== '');
  if (entries.length === 0) return null;
  const list = (
    <dl className="facts facts-compact">
      {entries.map(([key, value]) => (
        <div key={key} className="fact">
          <dt>{key.replace(/_/g, ' ')}</dt>
          <dd className="break">{typeof value === 'object' ? JSON.stringify(value) : String(value)}</dd>
        </div>
      ))}
    </dl>
  );
  // The record folds away so the history reads as a timeline of sentences.
  return (
    <details className="small">
      <summary>What was recorded ({entries.length === 1 ? '1 field' : `${entries.length} fields`})</summary>
      {list}
    </details>
  );
}

function StateAfter({ entry }: { entry: HistoryEntry }) {
  const { after } = entry;
  const lines = [
    after.address && `payment address ${after.address}`,
    after.payment_marked_at && `payment marked ${formatDateTime(after.payment_marked_at)}`,
    after.buyer_confirmed_at && `receipt confirmed ${formatDateTime(after.buyer_confirmed_at)}`,
    after.payout_address && `payout address ${after.payout_address}`,
    after.refund_address && `refund address ${after.refund_address}`,
    after.dispute_id && `dispute ${after.dispute_id.slice(0, 8)} open`,
  ].filter(Boolean);
  return lines.length ? <p className="small muted break">Then: {lines.join(' · ')}</p> : null;
}

/** Time travel: every event of the escrow, oldest first, with the escrow's state right after it. */
export function EscrowHistory({ escrowId }: { escrowId: string }) {
  const history = useEscrowHistory(escrowId);
  return (
    <section aria-labelledby="escrow-history-title">
      <h3 id="escrow-history-title">History</h3>
      <QueryState
        query={history}
        errorFallback="Failed to load the history"
        isEmpty={(list) => list.length === 0}
        empty="No events."
      >
        {(list) => (
          <ol className="history">
            {list.map((entry) => (
              <li key={entry.position} className="history-entry">
                <div className="history-head">
                  <strong className="break">{sentence(entry.summary)}</strong>
                  <StatusBadge status={entry.status_after} />
                </div>
                <p className="small muted break">
                  {formatDateTime(entry.occurred_at)} · by {actorName(entry)} ·{' '}
                  <span className="mono">{entry.type}</span> #{entry.position}
                </p>
                <EventData data={entry.data} />
                {Array.isArray(entry.data.evidence) && entry.data.evidence.length > 0 && (
                  <EvidenceList evidence={entry.data.evidence as Evidence[]} />
                )}
                <StateAfter entry={entry} />
              </li>
            ))}
          </ol>
        )}
      </QueryState>
    </section>
  );
}
