import { createHash, randomUUID } from 'node:crypto';
import type { EvidenceRef } from '../../domain/escrow/events.ts';
import { EVIDENCE_TYPES, EVIDENCE_TYPES_IN_WORDS, MAX_EVIDENCE_BYTES } from '../../domain/escrow/evidence-rules.ts';
import { DomainError } from '../../domain/shared/errors.ts';

export { MAX_EVIDENCE_BYTES };
/** The upload call's whole body may exceed the file by the form's other fields and boundaries. */
export const MAX_UPLOAD_BODY_BYTES = MAX_EVIDENCE_BYTES + 64 * 1024;

const ALLOWED = new Set<string>(Object.keys(EVIDENCE_TYPES));
const EXTENSION: Record<string, string> = EVIDENCE_TYPES;

export interface CheckedEvidence {
  ref: EvidenceRef;
  content: Uint8Array;
}

/** Text is what has no binary signature, decodes as UTF-8 and holds no control characters but tabs and breaks. */
function isPlainText(bytes: Uint8Array): boolean {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return false;
  }
  // eslint-disable-next-line no-control-regex -- control characters are what this looks for
  return !/[\u0000-\u0008\u000B\u000E-\u001F\u007F]/.test(text);
}

/** A safe name to offer on download: the type's extension, never the client's path or a double extension. */
function safeFilename(clientName: string, contentType: string): string {
  const base = clientName.replace(/^.*[\\/]/, '').replace(/\.[^.]*$/, '').replace(/[^\w .-]+/g, '_').trim().slice(0, 100);
  return `${base || 'evidence'}.${EXTENSION[contentType]}`;
}

/**
 * Checks an uploaded file by its bytes, never by its name or declared type: PNG, JPEG, WebP, GIF, PDF or plain
 * text, at most 10 MiB, not empty. Answers the reference the event records (with its SHA-256) and the bytes.
 */
export async function checkEvidence(clientName: string, bytes: Uint8Array): Promise<CheckedEvidence> {
  if (bytes.byteLength > MAX_EVIDENCE_BYTES) {
    throw new DomainError('payload_too_large', 'file must be at most 10 MB');
  }
  if (bytes.byteLength === 0) throw new DomainError('invalid_input', 'file is empty');
  const { fileTypeFromBuffer } = await import('file-type'); // loaded on the first upload, not at start
  const sniffed = await fileTypeFromBuffer(bytes);
  const contentType = sniffed ? sniffed.mime : isPlainText(bytes) ? 'text/plain' : null;
  if (!contentType || !ALLOWED.has(contentType)) {
    throw new DomainError(
      'unsupported_media_type',
      `file must be a ${EVIDENCE_TYPES_IN_WORDS} file${sniffed ? ` (its content is ${sniffed.mime})` : ''}`,
    );
  }
  return {
    content: bytes,
    ref: {
      evidence_id: randomUUID(),
      filename: safeFilename(clientName, contentType),
      content_type: contentType,
      size_bytes: bytes.byteLength,
      sha256: createHash('sha256').update(bytes).digest('hex'),
    },
  };
}
