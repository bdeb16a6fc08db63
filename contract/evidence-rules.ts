/** What a payment evidence file may be: the server checks the upload by its bytes, the browser before sending it. */
export { EVIDENCE_TYPES, EVIDENCE_TYPES_IN_WORDS, MAX_EVIDENCE_BYTES } from '../domain/escrow/evidence-rules.ts';
