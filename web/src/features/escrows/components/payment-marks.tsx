import { FileText } from 'lucide-react';
import { DownloadButton } from '../../../components/ui/download-button.tsx';
import { formatBytes, formatDateTime } from '../../../lib/format.ts';
import type { EscrowSide, EvidenceFile } from '../api/types.ts';

const MARK_STATUS: Record<EvidenceFile['mark_status'], string> = {
  pending: 'being checked by an admin',
  rejected: 'not found on the chain',
  verified: 'verified',
};

/** The files of one payment mark, by the time it was made. */
function byMark(files: readonly EvidenceFile[]): EvidenceFile[][] {
  const marks = new Map<string, EvidenceFile[]>();
  for (const file of files) marks.set(file.marked_at, [...(marks.get(file.marked_at) ?? []), file]);
  return [...marks.values()];
}

/** What the buyer sent with each payment mark: the notes and the files, each downloadable by either party. */
export function PaymentMarks({ evidence, side }: { evidence: readonly EvidenceFile[]; side: EscrowSide }) {
  if (evidence.length === 0) return null;
  return (
    <section className="card" aria-labelledby="marks-heading">
      <h2 id="marks-heading">
        {side === 'buyer' ? 'What you sent with your payment' : "The buyer's proof of payment"}
      </h2>
      <ol className="stacked-list">
        {byMark(evidence).map((files) => {
          const mark = files[0]!;
          return (
            <li key={mark.marked_at} className="payment-mark">
              <p className="small muted">
                Marked {formatDateTime(mark.marked_at)}: {MARK_STATUS[mark.mark_status]}
              </p>
              {mark.notes ? <p className="pre-wrap">{mark.notes}</p> : <p className="small muted">No notes.</p>}
              <ul className="stacked-list payment-mark-files">
                {files.map((file) => (
                  <li key={file.id}>
                    <FileText size={14} aria-hidden="true" /> {file.filename}{' '}
                    <span className="small muted">({formatBytes(file.size_bytes)})</span>{' '}
                    <DownloadButton variant="ghost" file={{ path: file.file_path, filename: file.filename }}>
                      Download<span className="visually-hidden"> {file.filename}</span>
                    </DownloadButton>
                  </li>
                ))}
              </ul>
            </li>
          );
        })}
      </ol>
    </section>
  );
}
