import { EVIDENCE_TYPES, EVIDENCE_TYPES_IN_WORDS, MAX_EVIDENCE_BYTES } from '../../../contract/evidence-rules.ts';

/** What the file picker offers: the types the server keeps. */
export const EVIDENCE_ACCEPT = Object.keys(EVIDENCE_TYPES).join(',');

/**
 * Checks an evidence file before it is uploaded, with the server's limits (the server checks the bytes again):
 * null when it may be sent, else why not.
 */
export function evidenceFileProblem(file: Pick<File, 'size' | 'type'>): string | null {
  if (file.size === 0) return 'The file is empty';
  if (file.size > MAX_EVIDENCE_BYTES) return `The file must be at most ${MAX_EVIDENCE_BYTES / 1024 / 1024} MB`;
  if (!(file.type in EVIDENCE_TYPES)) return `The file must be a ${EVIDENCE_TYPES_IN_WORDS} file`;
  return null;
}
