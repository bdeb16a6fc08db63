import { formatBtc, formatDateTime } from '../../../lib/format.ts';
import { QueryState } from '../../../components/ui/query-state.tsx';
import { useEscrowHistory } from '../api/get-escrow-history.ts';
import type { EscrowSide } from '../api/types.ts';

/** Who acted, unless the summary already says it ("Dispute opened by the buyer"); always "you" for the reader's side. */
function sideWords(actor: string, mine: EscrowSide, summary: string): string | null {
  if (actor === mine) return 'you';
  if (summary.includes(`the ${actor}`) || (actor === 'admin' && summary.includes('an admin'))) return null;
  return actor === 'system' ? 'automatic' : `the ${actor}`;
}

/** What happened when, read from the escrow's events (GET /api/escrows/{id}/history). */
export function EscrowTimeline({ id, updatedAt, side }: { id: string; updatedAt: string; side: EscrowSide }) {
  const history = useEscrowHistory(id, updatedAt);
  const sideOf = (entry: { actor_side: string; summary: string }) => sideWords(entry.actor_side, side, entry.summary);
  return (
    <QueryState
      query={history}
      errorFallback="The history cannot be loaded right now."
      isEmpty={(list) => list.length === 0}
      empty="Nothing has happened yet."
    >
      {(entries) => (
        <ol className="stacked-list history">
          {[...entries].reverse().map((entry) => (
            <li key={entry.version} className="history-entry">
              <p className="history-what">
                {entry.summary} {sideOf(entry) && <span className="history-side">({sideOf(entry)})</span>}
              </p>
              <p className="small muted">
                <time dateTime={entry.occurred_at}>{formatDateTime(entry.occurred_at)}</time>
              </p>
              {entry.reason && <p className="small">Reason: {entry.reason}</p>}
              {entry.outcome && <p className="small">Outcome: {entry.outcome}</p>}
              {entry.seller_percent !== null && (
                <p className="small">
                  Seller {entry.seller_percent}%, buyer {100 - entry.seller_percent}%
                </p>
              )}
              {entry.seller_sats !== null && entry.seller_sats > 0 && (
                <p className="small">To the seller: {formatBtc(entry.seller_sats)}</p>
              )}
              {entry.buyer_sats !== null && entry.buyer_sats > 0 && (
                <p className="small">To the buyer: {formatBtc(entry.buyer_sats)}</p>
              )}
              {entry.address && <p className="small mono break">{entry.address}</p>}
              {entry.evidence_files ? (
                <p className="small">
                  {entry.evidence_files === 1 ? 'With 1 evidence file' : `With ${entry.evidence_files} evidence files`}
                </p>
              ) : null}
              {entry.txid && <p className="small mono break">Transaction {entry.txid}</p>}
            </li>
          ))}
        </ol>
      )}
    </QueryState>
  );
}
