import { Download } from 'lucide-react';
import { useState } from 'react';
import { messageOf } from '../../api/client.ts';
import { formatDateTime } from '../../lib/format.ts';
import { saveBlob } from '../../lib/save-blob.ts';
import { Button } from '../ui/button.tsx';
import { Message as Notice } from '../ui/message.tsx';
import { getMessageFile, type Message } from './messages-api.ts';

export type Side = Message['side'];
const SIDE_WORDS: Record<Side, string> = { buyer: 'Buyer', seller: 'Seller', admin: 'Admin' };
const size = (bytes: number) => (bytes < 1024 ? `${bytes} B` : bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`);

function FileButton({ file }: { file: NonNullable<Message['file']> }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const download = async () => {
    setBusy(true);
    setError(null);
    try {
      saveBlob(await getMessageFile(file.url), file.filename);
    } catch (failure) {
      setError(messageOf(failure, 'Failed to download the file'));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="message-file">
      <Button variant="secondary" busy={busy} onClick={() => void download()}>
        <Download size={16} aria-hidden="true" /> {file.filename} <span className="muted">({size(file.size_bytes)})</span>
      </Button>
      {error && <Notice tone="error">{error}</Notice>}
    </div>
  );
}

/** The conversation, oldest first; the viewer's own side's messages set apart as theirs. */
export function MessageList({ messages, viewerSide }: { messages: readonly Message[]; viewerSide: Side }) {
  return (
    <ol className="stacked-list message-list">
      {messages.map((m) => {
        const mine = m.side === viewerSide;
        return (
          <li key={m.id} className={`message-item message-${m.side}${mine ? ' message-mine' : ''}`}>
            <p className="message-meta">
              <strong>{mine && viewerSide !== 'admin' ? 'You' : m.author}</strong>
              <span className={`side-tag side-${m.side}`}>{SIDE_WORDS[m.side]}</span>
              <time dateTime={m.created_at}>{formatDateTime(m.created_at)}</time>
            </p>
            <p className="message-text">{m.text}</p>
            {m.file && <FileButton file={m.file} />}
          </li>
        );
      })}
    </ol>
  );
}
