/** What a payment evidence file may be: checked by its bytes on the server, and before the upload in the browser. */

/** Largest evidence file: 10 MiB. */
export const MAX_EVIDENCE_BYTES = 10 * 1024 * 1024;

/** The types the server keeps, as their MIME types and what a person calls them. */
export const EVIDENCE_TYPES = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
  'image/gif': 'gif',
  'application/pdf': 'pdf',
  'text/plain': 'txt',
} as const;

export const EVIDENCE_TYPES_IN_WORDS = 'PNG, JPEG, WebP, GIF, PDF or plain text';
