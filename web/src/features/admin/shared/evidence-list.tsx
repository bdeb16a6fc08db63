import { Download, FileText } from 'lucide-react';
import { useEffect, useMemo, useState } from 'react';
import { messageOf } from '../../../api/client.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Loading } from '../../../components/ui/loading.tsx';
import { Message } from '../../../components/ui/message.tsx';
import { getFile } from '../../../lib/get-file.ts';
import { useFile } from './api/get-file.ts';
import { saveBlob } from '../../../lib/save-blob.ts';

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
const size = (bytes: number) => (bytes < 1024 ? `${bytes} B` : bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`);

function ImagePreview({ evidence }: { evidence: Evidence }) {
  const file = useFile(pathOf(evidence));
  const url = useMemo(() => (file.data ? URL.createObjectURL(file.data) : null), [file.data]);
  useEffect(() => () => (url ? URL.revokeObjectURL(url) : undefined), [url]);
  if (file.isError) return <Message tone="error">{messageOf(file.error, 'Failed to load the file')}</Message>;
  if (!url) return <Loading label="Loading the image..." />;
  return <img className="evidence-image" src={url} alt={`Payment evidence: ${evidence.filename}`} />;
}

function DownloadButton({ evidence }: { evidence: Evidence }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const download = async () => {
    setBusy(true);
    setError(null);
    try {
      saveBlob(await getFile(pathOf(evidence), 'Failed to download the file'), evidence.filename);
    } catch (failure) {
      setError(messageOf(failure, 'Failed to download the file'));
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <Button variant="secondary" busy={busy} onClick={() => void download()}>
        <Download size={16} aria-hidden="true" /> Download {evidence.filename}
      </Button>
      {error && <Message tone="error">{error}</Message>}
    </>
  );
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
            <FileText size={14} aria-hidden="true" /> {e.filename} <span className="muted">({e.content_type}, {size(e.size_bytes)})</span>
          </p>
          {showNotes && e.notes && <p className="small">{e.notes}</p>}
          {PREVIEWED.has(e.content_type) && <ImagePreview evidence={e} />}
          <DownloadButton evidence={e} />
        </li>
      ))}
    </ul>
  );
}
