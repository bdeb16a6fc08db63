import type { Kysely } from 'kysely';
import { escrowAggregate } from '../../domain/aggregates.ts';
import { SYSTEM_ACTOR } from '../../domain/shared/context.ts';
import { type CommandMeta, handle } from '../commands/handle.ts';
import type { Database } from '../db/schema.ts';
import type { EventStore } from '../event-store/event-store.ts';
import { unboundEscrowsOf } from './unbound-escrows.ts';

/**
 * Binds every escrow whose counterparty side is still matched by `email` to the account `userId` (a PartyBound event
 * each): from then on that side belongs to the account, whoever holds the e-mail address later. Called when an
 * account verifies its address, and before an account is deleted or its address changed. Its own module, so that
 * accounts/ (which calls it) needs nothing of escrows/, which imports accounts/ for the second factor.
 */
export async function bindEscrowsOf(
  deps: { db: Kysely<Database>; store: EventStore },
  user: { id: string; email: string },
  meta: Omit<CommandMeta, 'actor'>,
) {
  for (const escrow of await unboundEscrowsOf(deps.db, user)) {
    const side = escrow.creator_side === 'buyer' ? 'seller' : 'buyer';
    const command = { type: 'bindParty', by: 'system', side, user_id: user.id } as const;
    await handle(deps.store, escrowAggregate, escrow.id, command, { ...meta, actor: SYSTEM_ACTOR }, { attempts: 10 });
  }
}
