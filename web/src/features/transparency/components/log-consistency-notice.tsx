import { useQueryClient } from '@tanstack/react-query';
import { ApiError } from '../../../api/client.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Loading } from '../../../components/ui/loading.tsx';
import { Message } from '../../../components/ui/message.tsx';
import { toBase64 } from '../../../../../domain/transparency/merkle.ts';
import { logConsistencyQueryOptions, useLogConsistency } from '../api/use-log-consistency.ts';
import { localSeenCheckpoints } from '../model/seen-checkpoint.ts';

/**
 * The outcome of this browser's check of the log against the last checkpoint it saw. A rewrite is a loud warning
 * that stays (the remembered checkpoint is kept) until the person chooses to trust the log as it is now.
 */
export function LogConsistencyNotice() {
  const check = useLogConsistency();
  const queryClient = useQueryClient();
  if (check.isPending) return <Loading label="Checking the log against the last checkpoint this browser saw..." />;
  if (check.isError) {
    if (check.error instanceof ApiError && check.error.status === 404) {
      return (
        <Message tone="info">
          The log has no signed checkpoint yet; the first is signed within a minute of the first event.
        </Message>
      );
    }
    return (
      <div className="query-error" role="alert">
        <p>Could not check the log right now: {check.error.message}</p>
        <Button variant="secondary" busy={check.isRefetching} onClick={() => void check.refetch()}>
          Retry
        </Button>
      </div>
    );
  }
  const result = check.data;
  if (result.status === 'first') {
    return (
      <Message tone="info">
        This browser now remembers checkpoint {result.checkpoint.size} of the log. On your next visits it checks that
        the log still extends it.
      </Message>
    );
  }
  if (result.status === 'consistent') {
    const grown = result.checkpoint.size - result.seenSize;
    return (
      <Message tone="success">
        Log consistent: checkpoint {result.checkpoint.size} extends checkpoint {result.seenSize} this browser saw before
        {grown > 0 ? ` (${grown} events added, none changed)` : ' (nothing changed)'}.
      </Message>
    );
  }
  const trustNow = () => {
    if (!result.checkpoint) return;
    const { origin, size, root } = result.checkpoint;
    localSeenCheckpoints().set(origin, { size, root_hash: toBase64(root), seen_at: new Date().toISOString() });
    void queryClient.invalidateQueries(logConsistencyQueryOptions());
  };
  return (
    <div className="message message-error tlog-warning" role="alert">
      <h3>Warning: the log was rewritten</h3>
      <p>{result.reason}</p>
      <p>
        Records you saw before may have been changed since. Keep the proof files you downloaded, do not rely on this
        service's records until the operator explains, and tell the other party of your deal.
      </p>
      {result.checkpoint && (
        <Button variant="secondary" onClick={trustNow}>
          Trust the log as it is now
        </Button>
      )}
    </div>
  );
}
