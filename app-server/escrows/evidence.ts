import { createHash, randomUUID } from 'node:crypto';
import type { EvidenceRef } from '../../domain/escrow/events.ts';
import { EVIDENCE_TYPES, EVIDENCE_TYPES_IN_WORDS, MAX_EVIDENCE_BYTES } from '../../domain/escrow/evidence-rules.ts';
import { DomainError } from '../../domain/shared/errors.ts';

export { MAX_EVIDENCE_BYTES };
/** The upload call's whole body may exceed the file by the form's other fields and boundaries. */
export const MAX_UPLOAD_BODY_BYTES = MAX_EVIDENCE_BYTES + 64 * 1024;

/** What each accepted type (EVIDENCE_TYPES) may be declared as by the client, and the name extensions it may carry. */
const ACCEPTED: Record<
  keyof typeof EVIDENCE_TYPES | string,
  { declared: readonly string[]; extensions: readonly string[] }
> = {
  'image/png': { declared: ['image/png'], extensions: ['png'] },
  'image/jpeg': { declared: ['image/jpeg', 'image/jpg', 'image/pjpeg'], extensions: ['jpg', 'jpeg', 'jpe', 'jfif'] },
  'image/webp': { declared: ['image/webp'], extensions: ['webp'] },
  'image/gif': { declared: ['image/gif'], extensions: ['gif'] },
  'application/pdf': { declared: ['application/pdf'], extensions: ['pdf'] },
  'text/plain': { declared: ['text/plain'], extensions: ['txt', 'text', 'log'] },
};
/** Declarations that claim nothing: a browser's empty type for an unknown extension, curl's default. */
const UNDECLARED = new Set(['', 'application/octet-stream']);
const EXTENSION: Record<string, string> = EVIDENCE_TYPES;

/**
 * Markup and scripts that a browser or a viewer could run or render, wherever they are in the text (old sniffers
 * read past the start): WHATWG's HTML sniffing signatures, SVG, XML and other processing instructions (`<?php`), and a script's `#!` line.
 */
const MARKUP =
  /<(?:!doctype|!--|\?|(?:html|head|body|script|iframe|frame|frameset|object|embed|applet|svg|math|style|link|meta|base|form|input|img|video|audio|template|title|table|div|font|h1|a|b|br|p)(?=[\s/>]))|^\uFEFF?\s*#!/i;

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
  const base = clientName
    .replace(/^.*[\\/]/, '')
    .replace(/\.[^.]*$/, '')
    .replace(/[^\w .-]+/g, '_')
    .trim()
    .slice(0, 100);
  return `${base || 'evidence'}.${EXTENSION[contentType]}`;
}

/** The name's extension, lower case, or '' when it has none. */
const extensionOf = (name: string) => /\.([^./\\]+)$/.exec(name.replace(/^.*[\\/]/, ''))?.[1]?.toLowerCase() ?? '';

/**
 * Checks an uploaded file by its bytes: PNG, JPEG, WebP, GIF, PDF or plain text (never HTML, SVG, XML or a script,
 * whatever it is called), at most 10 MiB, not empty. The type the client declared and the name's extension must agree
 * with what the bytes are, else 415 naming both. Answers the reference the event records (with its SHA-256) and the
 * bytes.
 */
export async function checkEvidence(
  clientName: string,
  declaredType: string,
  bytes: Uint8Array,
): Promise<CheckedEvidence> {
  if (bytes.byteLength > MAX_EVIDENCE_BYTES) {
    throw new DomainError('payload_too_large', 'file must be at most 10 MB');
  }
  if (bytes.byteLength === 0) throw new DomainError('invalid_input', 'file is empty');
  const declared = declaredType.split(';')[0]!.trim().toLowerCase();
  const extension = extensionOf(clientName);
  const sentAs = `sent as ${declared || 'no type'} named ${extension ? `*.${extension}` : 'without an extension'}`;
  const { fileTypeFromBuffer } = await import('file-type'); // loaded on the first upload, not at start
  const sniffed = await fileTypeFromBuffer(bytes);
  const text = !sniffed && isPlainText(bytes) ? new TextDecoder().decode(bytes) : null;
  if (text !== null && MARKUP.test(text)) {
    throw new DomainError(
      'unsupported_media_type',
      `file holds HTML, SVG, XML or a script, which is never accepted (${sentAs})`,
    );
  }
  const contentType = sniffed ? sniffed.mime : text !== null ? 'text/plain' : null;
  const accepted = contentType ? ACCEPTED[contentType] : undefined;
  if (!contentType || !accepted) {
    throw new DomainError(
      'unsupported_media_type',
      `file must be a ${EVIDENCE_TYPES_IN_WORDS} file (its content is ${contentType ?? 'not one of these'}; ${sentAs})`,
    );
  }
  const declaredAgrees = UNDECLARED.has(declared) || accepted.declared.includes(declared);
  const extensionAgrees = extension === '' || accepted.extensions.includes(extension);
  if (!declaredAgrees || !extensionAgrees) {
    throw new DomainError(
      'unsupported_media_type',
      `file content is ${contentType} but it was ${sentAs}; the type and the extension must match the content`,
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
