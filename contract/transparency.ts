import { z } from 'zod';

/** Answers of the public transparency log API (contract section 8): hashes and signed notes only, never event data. */

const base64Hash = z.string().regex(/^[A-Za-z0-9+/]{43}=$/);

export const transparencyKeySchema = z.object({
  origin: z.string(),
  /** `name+hash+base64key`, as golang.org/x/mod/sumdb/note's NewVerifier reads it. */
  vkey: z.string(),
});

export const checkpointEntrySchema = z.object({
  size: z.number().int(),
  root_hash: base64Hash,
  signed_at: z.string(),
  /** The C2SP signed note, exactly as published. */
  note: z.string(),
});
export type CheckpointEntry = z.infer<typeof checkpointEntrySchema>;

export const checkpointListSchema = z.array(checkpointEntrySchema);

export const inclusionProofSchema = z.object({
  index: z.number().int(),
  size: z.number().int(),
  proof: z.array(base64Hash),
});
export const consistencyProofSchema = z.object({
  from: z.number().int(),
  to: z.number().int(),
  proof: z.array(base64Hash),
});

const count = (name: string) =>
  z
    .string()
    .regex(/^(0|[1-9][0-9]{0,15})$/, `${name} must be a whole number`)
    .transform(Number)
    .refine((n) => Number.isSafeInteger(n), `${name} is too large`);

export const checkpointsQuerySchema = z.object({ after: count('after').optional() });
export const inclusionQuerySchema = z.object({ index: count('index'), size: count('size') });
export const consistencyQuerySchema = z.object({ from: count('from'), to: count('to') });

/** One event of a deal's proof: its export line and its inclusion proof up to the checkpoint's size. */
export const proofEventSchema = z.object({
  position: z.number().int(),
  line: z.string(),
  inclusion: z.array(base64Hash),
});

export const escrowProofSchema = z.object({
  checkpoint: z.string(),
  vkey: z.string(),
  events: z.array(proofEventSchema),
  /** Events of the escrow after the checkpoint: the next checkpoint (within CHECKPOINT_INTERVAL_S) covers them. */
  pending_events: z.number().int(),
});
export type EscrowProof = z.infer<typeof escrowProofSchema>;
