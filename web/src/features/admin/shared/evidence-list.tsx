import { FileText } from 'lucide-react';
import { useEffect, useMemo } from 'react';
import { messageOf } from '../../../api/client.ts';
import { DownloadButton } from '../../../components/ui/download-button.tsx';
import { Loading } from '../../../components/ui/loading.tsx';
import { Message } from '../../../components/ui/message.tsx';
import { formatBytes } from '../../../lib/format.ts';
import { useFile } from './api/get-file.ts';

/** One evidence file as the API lists it (pending verifications) or the log records it (PaymentMarked). */
export interface Evidence {
  id?: string;
  evidence_id?: string;
  filename: string;
  content_type: string;
  size_bytes: number;
  url?: string;
  file_path?: string;
  notes?: string;
}

const PREVIEWED = new Set(['image/png', 'image/jpeg', 'image/webp', 'image/gif']);
const idOf = (e: Evidence) => e.evidence_id ?? e.id ?? '';
const pathOf = (e: Evidence) => e.url ?? e.file_path ?? `/api/evidence/${idOf(e)}`;

function ImagePreview({ evidence }: { evidence: Evidence }) {
  const file = useFile(pathOf(evidence));
  const url = useMemo(() => (file.data ? URL.createObjectURL(file.data) : null), [file.data]);
  useEffect(() => () => (url ? URL.revokeObjectURL(url) : undefined), [url]);
  if (file.isError) return <Message tone="error">{messageOf(file.error, 'Failed to load the file')}</Message>;
  if (!url) return <Loading label="Loading the image..." />;
  return <img className="evidence-image" src={url} alt={`Payment evidence: ${evidence.filename}`} />;
}

/** The evidence of a payment mark: images shown in the page, every file downloadable. */
/** `showNotes` off where the mark's notes are already shown beside the files (the verification queue). */
export function EvidenceList({ evidence, showNotes = true }: { evidence: readonly Evidence[]; showNotes?: boolean }) {
  if (evidence.length === 0) return <p className="muted small">No file was attached.</p>;
  return (
    <ul className="evidence-list">
      {evidence.map((e) => (
        <li key={idOf(e)} className="evidence-item">
          <p className="small">
            <FileText size={14} aria-hidden="true" /> {e.filename}{' '}
            <span className="muted">
              ({e.content_type}, {formatBytes(e.size_bytes)})
            </span>
          </p>
          {showNotes && e.notes && <p className="small">{e.notes}</p>}
          {PREVIEWED.has(e.content_type) && <ImagePreview evidence={e} />}
          <DownloadButton file={{ path: pathOf(e), filename: e.filename }}>Download {e.filename}</DownloadButton>
        </li>
      ))}
    </ul>
  );
}
