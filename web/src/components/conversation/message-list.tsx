import { formatBytes, formatDateTime } from '../../lib/format.ts';
import { DownloadButton } from '../ui/download-button.tsx';
import type { Message } from './messages-api.ts';

export type Side = Message['side'];
const SIDE_WORDS: Record<Side, string> = { buyer: 'Buyer', seller: 'Seller', admin: 'Admin' };

function FileButton({ file }: { file: NonNullable<Message['file']> }) {
  return (
    <div className="message-file">
      <DownloadButton file={{ path: file.url, filename: file.filename }}>
        {file.filename} <span className="muted">({formatBytes(file.size_bytes)})</span>
      </DownloadButton>
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
