import { usePageMeta } from '../../../components/page-meta.ts';
import { CheckpointHistory } from '../components/checkpoint-history.tsx';
import { LatestCheckpoint } from '../components/latest-checkpoint.tsx';
import { LogConsistencyNotice } from '../components/log-consistency-notice.tsx';
import '../transparency.css';

/** The public page of the transparency log: what it is, where it stands, its key, how to check it, its history. */
export function TransparencyPage() {
  usePageMeta(
    'Transparency log',
    'The public, signed log of every escrow event: its latest checkpoint, its key, and how to check a proof yourself.',
    'transparency log, merkle tree, signed checkpoint, bitcoin escrow proof',
  );
  return (
    <article className="tlog-page">
      <div className="prose">
        <p className="eyebrow">Transparency log</p>
        <h1>A log anyone can check</h1>
        <p className="lead">
          We hold the money, so you should not have to take our word for what happened to it. Every event of every
          escrow is a leaf of a public Merkle tree, and whenever the log grows we sign its root again, at a fixed
          interval.
        </p>
        <p>
          The log publishes hashes only, never what a deal is about. With them you can check that the events of your
          escrow are in the log everyone else sees, and that the log was only ever added to: a history rewritten
          afterwards, even with every hash recomputed, no longer matches the checkpoints signed before.
        </p>
      </div>
      <section className="card tlog-card" aria-labelledby="tlog-browser-heading">
        <h2 id="tlog-browser-heading">This browser's check</h2>
        <p className="small">
          Your browser remembers the last checkpoint it saw and asks the server to prove that today's log extends it.
        </p>
        <LogConsistencyNotice />
      </section>
      <LatestCheckpoint />
      <section className="card tlog-card" aria-labelledby="tlog-how-heading">
        <h2 id="tlog-how-heading">Check a proof yourself</h2>
        <ol>
          <li>
            On your escrow's page, under <strong>Proof in the public log</strong>, choose{' '}
            <strong>Download proof</strong>. The file holds the signed checkpoint, each event of your escrow as the log
            stores it, and the hashes that connect each one to the checkpoint's root.
          </li>
          <li>
            Check it offline with the service's command line, pinning the key above:
            <pre className="tlog-note">npm run cli -- verify-proof escrow-ID-proof.json --vkey KEY</pre>
            It recomputes each event's hash from its content, checks each inclusion proof against the checkpoint's root,
            and the checkpoint's signature.
          </li>
          <li>
            Keep the checkpoints you have seen. An operator's full export can be checked against them:
            <pre className="tlog-note">npm run cli -- verify-export events.ndjson --checkpoint checkpoints.txt</pre>
          </li>
          <li>
            Monitors can mirror the log with any C2SP tlog-tiles client: the checkpoint is at{' '}
            <code>/tlog/checkpoint</code> and the hash tiles at <code>/tlog/tile/L/N</code>. Proofs are at{' '}
            <code>/api/transparency/inclusion</code> and <code>/api/transparency/consistency</code>. Checkpoints verify
            with Go's <code>sumdb/note</code>, proofs with its <code>sumdb/tlog</code>.
          </li>
        </ol>
      </section>
      <CheckpointHistory />
    </article>
  );
}
