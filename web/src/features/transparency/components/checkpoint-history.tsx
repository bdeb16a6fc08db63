import { Button } from '../../../components/ui/button.tsx';
import { QueryState } from '../../../components/ui/query-state.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { useCheckpointHistory } from '../api/get-checkpoints.ts';

/** Every checkpoint the log signed, oldest first, a page of the server's at a time. */
export function CheckpointHistory() {
  const history = useCheckpointHistory();
  return (
    <section className="card tlog-card" aria-labelledby="tlog-history-heading">
      <h2 id="tlog-history-heading">Checkpoint history</h2>
      <QueryState
        query={history}
        errorFallback="The checkpoint history cannot be loaded right now."
        isEmpty={(data) => data.pages[0]!.length === 0}
        empty={<p>No checkpoint is signed yet: the first one is signed within a minute of the log's first event.</p>}
      >
        {(data) => (
          <>
            <div className="tlog-table-wrap" tabIndex={0} role="region" aria-label="Signed checkpoints">
              <table className="tlog-table">
                <thead>
                  <tr>
                    <th scope="col">Events</th>
                    <th scope="col">Root hash</th>
                    <th scope="col">Signed (UTC)</th>
                  </tr>
                </thead>
                <tbody>
                  {data.pages.flat().map((checkpoint) => (
                    <tr key={checkpoint.size}>
                      <td>{checkpoint.size.toLocaleString('en-US')}</td>
                      <td className="mono">{checkpoint.root_hash}</td>
                      <td>{formatDateTime(checkpoint.signed_at)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            {history.hasNextPage && (
              <Button
                variant="secondary"
                busy={history.isFetchingNextPage}
                onClick={() => void history.fetchNextPage()}
              >
                Show later checkpoints
              </Button>
            )}
          </>
        )}
      </QueryState>
    </section>
  );
}
