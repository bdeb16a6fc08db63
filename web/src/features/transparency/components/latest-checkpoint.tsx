import { CopyButton } from '../../../components/ui/copy-button.tsx';
import { Message } from '../../../components/ui/message.tsx';
import { QueryState } from '../../../components/ui/query-state.tsx';
import { toBase64 } from '../../../../../domain/transparency/merkle.ts';
import { verifyCheckpoint } from '../../../../../domain/transparency/note.ts';
import { useLatestCheckpoint } from '../api/get-latest-checkpoint.ts';
import { useLogKey } from '../api/get-log-key.ts';

/** The latest signed checkpoint as published, its size and root, and the key that signs it. */
export function LatestCheckpoint() {
  const note = useLatestCheckpoint();
  const key = useLogKey();
  return (
    <>
      <section className="card tlog-card" aria-labelledby="tlog-key-heading">
        <h2 id="tlog-key-heading">The log's key</h2>
        <QueryState query={key} errorFallback="The log's key cannot be loaded right now.">
          {({ origin, vkey }) => (
            <>
              <p>
                The log is named <code>{origin}</code>. Its checkpoints are signed with this Ed25519 key, in the form
                Go's <code>golang.org/x/mod/sumdb/note</code> reads:
              </p>
              <p className="tlog-value mono">{vkey}</p>
              <CopyButton text={vkey} label="Copy key" />
            </>
          )}
        </QueryState>
      </section>
      <section className="card tlog-card" aria-labelledby="tlog-latest-heading">
        <h2 id="tlog-latest-heading">Latest checkpoint</h2>
        <QueryState query={note} errorFallback="The latest checkpoint cannot be loaded right now.">
          {(text) => {
            const checked = key.data ? verifyCheckpoint(text, key.data.vkey) : null;
            return (
              <>
                {checked?.ok && (
                  <dl className="tlog-facts">
                    <dt>Events in the log</dt>
                    <dd>{checked.checkpoint.size.toLocaleString('en-US')}</dd>
                    <dt>Root hash</dt>
                    <dd className="mono tlog-value">{toBase64(checked.checkpoint.root)}</dd>
                  </dl>
                )}
                {checked && !checked.ok && (
                  <Message tone="error">This checkpoint does not verify with the log's key: {checked.reason}.</Message>
                )}
                <pre className="tlog-note" tabIndex={0} aria-label="The signed checkpoint note">
                  {text}
                </pre>
                <CopyButton text={text} label="Copy checkpoint" />
              </>
            );
          }}
        </QueryState>
      </section>
    </>
  );
}
