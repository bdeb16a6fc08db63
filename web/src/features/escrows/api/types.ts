/** The escrow answers this feature reads (GET /api/escrows, /api/escrows/{id}): the API's own answer schemas. */
import type { z } from 'zod';
import type {
  escrowDetailSchema,
  escrowDisputeSchema,
  escrowSchema,
  escrowStatusSchema,
  evidenceFileSchema,
} from '../../../../../contract/escrows.ts';

export type EscrowStatus = z.infer<typeof escrowStatusSchema>;
export type Escrow = z.infer<typeof escrowSchema>;
export type EscrowSide = Escrow['side'];
export type EscrowDispute = z.infer<typeof escrowDisputeSchema>;
/** GET /api/escrows/{id}: the escrow with the files of its payment marks. */
export type EscrowDetail = z.infer<typeof escrowDetailSchema>;
export type EvidenceFile = z.infer<typeof evidenceFileSchema>;

/** What the signed-in user may do on an escrow now (contract 7.7): the page offers exactly these. */
export type EscrowAction = Escrow['allowed_actions'][number];
export type { Proposal, Shipment } from '../../../../../contract/escrows.ts';
