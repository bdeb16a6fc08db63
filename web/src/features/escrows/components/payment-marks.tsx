import { Download, FileText } from 'lucide-react';
import { messageOf } from '../../../api/client.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Message } from '../../../components/ui/message.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { useDownloadEvidence } from '../api/download-evidence.ts';
import type { EscrowSide, EvidenceFile } from '../api/types.ts';

const MARK_STATUS: Record<EvidenceFile['mark_status'], string> = {
  pending: 'being checked by an admin',
  rejected: 'not found on the chain',
  verified: 'verified',
};

const sizeOf = (bytes: number) =>
  bytes < 1024 ? `${bytes} B` : bytes < 1024 ** 2 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / 1024 ** 2).toFixed(1)} MB`;

/** The files of one payment mark, by the time it was made. */
function byMark(files: readonly EvidenceFile[]): EvidenceFile[][] {
  const marks = new Map<string, EvidenceFile[]>();
  for (const file of files) marks.set(file.marked_at, [...(marks.get(file.marked_at) ?? []), file]);
  return [...marks.values()];
}

/** What the buyer sent with each payment mark: the notes and the files, each downloadable by either party. */
export function PaymentMarks({ evidence, side }: { evidence: readonly EvidenceFile[]; side: EscrowSide }) {
  const download = useDownloadEvidence();
  if (evidence.length === 0) return null;
  return (
    <section className="card" aria-labelledby="marks-heading">
      <h2 id="marks-heading">{side === 'buyer' ? 'What you sent with your payment' : "The buyer's proof of payment"}</h2>
      {download.isError && <Message tone="error">{messageOf(download.error, 'Failed to download the file')}</Message>}
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
                    <span className="small muted">({sizeOf(file.size_bytes)})</span>{' '}
                    <Button
                      variant="ghost"
                      busy={download.isPending && download.variables?.file_path === file.file_path}
                      onClick={() => download.mutate(file)}
                    >
                      <Download size={16} aria-hidden="true" /> Download
                      <span className="visually-hidden"> {file.filename}</span>
                    </Button>
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
