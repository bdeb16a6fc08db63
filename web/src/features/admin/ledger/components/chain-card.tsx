import { CheckCircle2, XCircle } from 'lucide-react';
import { Button } from '../../../../components/ui/button.tsx';
import { CopyButton } from '../../../../components/ui/copy-button.tsx';
import { QueryState } from '../../../../components/ui/query-state.tsx';
import { formatDateTime } from '../../../../lib/format.ts';
import { useChain } from '../api/get-chain.ts';

/** The chain head to publish (position:hash, as `npm run cli -- chain-head` prints it) and the server's own check. */
export function ChainCard() {
  const chain = useChain();
  return (
    <section className="card stack" aria-labelledby="chain-title">
      <h3 id="chain-title">Chain head</h3>
      <QueryState query={chain} errorFallback="Failed to check the chain">
        {(c) => {
          const head = `${c.head.position}:${c.head.hash}`;
          const problem = c.first_break ?? c.broken;
          return (
            <>
              <p className="mono break head-line">{head}</p>
              <div className="row-actions">
                <CopyButton text={head} label="Copy the head to publish" />
                <Button variant="secondary" busy={chain.isFetching} onClick={() => void chain.refetch()}>
                  Check the chain again
                </Button>
              </div>
              {c.ok && !c.broken ? (
                <p className="ok-line">
                  <CheckCircle2 size={16} aria-hidden="true" /> All {c.events} events verify: every hash and link
                  checked, up to position {c.verified_up_to}.
                </p>
              ) : (
                <p className="bad-line" role="alert">
                  <XCircle size={16} aria-hidden="true" /> The chain is broken at position {problem?.position}
                  {problem?.reason ? `: ${problem.reason}` : ''}. Verified up to {c.verified_up_to}.
                </p>
              )}
              {c.last_full_check_at && (
                <p className="small muted">Last full check by the server: {formatDateTime(c.last_full_check_at)}</p>
              )}
            </>
          );
        }}
      </QueryState>
    </section>
  );
}
