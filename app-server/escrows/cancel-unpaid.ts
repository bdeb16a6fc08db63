import { DomainError, notFound } from '../../domain/shared/errors.ts';
import type { AppDeps } from '../app-deps.ts';
import type { CommandMeta } from '../commands/handle.ts';
import { cancelUnpaidByAdmin } from './commands.ts';

export interface CancelledUnpaid {
  cancelled: string[];
  skipped: { id: string; detail: string }[];
}

/**
 * Cancels every unpaid escrow (waiting for payment, none marked) a suspended account is a party to, each through the
 * escrow's own command (an event per escrow, its address freed, both parties mailed). One that changed meanwhile (the
 * buyer marked the payment, say) is left and named with why; the others are cancelled all the same.
 */
export async function cancelUnpaidEscrowsOf(
  deps: AppDeps,
  userId: string,
  reason: string,
  meta: CommandMeta,
): Promise<CancelledUnpaid> {
  const { db } = deps.database;
  const user = await db.selectFrom('users').select(['id', 'is_frozen']).where('id', '=', userId).executeTakeFirst();
  if (!user) throw notFound('User not found');
  if (!user.is_frozen)
    throw new DomainError(
      'conflict',
      'Suspend the account first: only a suspended account has all its unpaid escrows cancelled at once',
    );
  const unpaid = await db
    .selectFrom('escrows')
    .select('id')
    .where((eb) => eb.or([eb('buyer_id', '=', userId), eb('seller_id', '=', userId)]))
    .where('status', '=', 'pending_payment')
    .where('payment_marked_at', 'is', null)
    .orderBy('created_at')
    .execute();
  const result: CancelledUnpaid = { cancelled: [], skipped: [] };
  for (const { id } of unpaid) {
    try {
      await cancelUnpaidByAdmin(deps.store, { escrowId: id, reason }, meta);
      result.cancelled.push(id);
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      result.skipped.push({ id, detail: error.detail });
    }
  }
  return result;
}
