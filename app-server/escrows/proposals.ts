import type { Kysely } from 'kysely';
import { notFound } from '../../domain/shared/errors.ts';
import type { Database } from '../db/schema.ts';

/** The proposal `proposalId` of escrow `escrowId`, or 404: an answer to a proposal the escrow never had. */
export async function requireProposal(db: Kysely<Database>, escrowId: string, proposalId: string) {
  const proposal = await db
    .selectFrom('escrow_proposals')
    .select(['id', 'status'])
    .where('id', '=', proposalId)
    .where('escrow_id', '=', escrowId)
    .executeTakeFirst();
  if (!proposal) throw notFound('Proposal not found');
  return proposal;
}
