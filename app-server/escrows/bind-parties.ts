import { type Kysely, sql } from 'kysely';
import { escrowAggregate } from '../../domain/aggregates.ts';
import { SYSTEM_ACTOR } from '../../domain/shared/context.ts';
import { type CommandMeta, executeCommand, retryingConflicts } from '../commands/execute.ts';
import type { Database } from '../db/schema.ts';
import type { EventStore } from '../event-store/append.ts';

/**
 * Binds every escrow whose counterparty side is still matched by `email` to the account `userId` (a PartyBound event
 * each): from then on that side belongs to the account, whoever holds the e-mail address later. Called when an
 * account verifies its address, and before an account is deleted or its address changed.
 */
export async function bindEscrowsOf(deps: { db: Kysely<Database>; store: EventStore }, user: { id: string; email: string }, meta: Omit<CommandMeta, 'actor'>) {
  const { db } = deps;
  const email = user.email.toLowerCase();
  const unbound = await db
    .selectFrom('escrows')
    .select(['id', 'creator_side'])
    .where((eb) =>
      eb.or([
        eb.and([eb('creator_side', '=', 'seller'), eb('buyer_email', '=', email), eb('buyer_id', 'is', null)]),
        eb.and([eb('creator_side', '=', 'buyer'), eb('seller_email', '=', email), eb('seller_id', 'is', null)]),
      ]),
    )
    .where('created_by', '!=', sql<string>`${user.id}::uuid`)
    .execute();
  for (const escrow of unbound) {
    const side = escrow.creator_side === 'buyer' ? 'seller' : 'buyer';
    await retryingConflicts(() =>
      executeCommand(deps, escrowAggregate, escrow.id, { type: 'bindParty', by: 'system', side, user_id: user.id }, { ...meta, actor: SYSTEM_ACTOR }),
    );
  }
}
