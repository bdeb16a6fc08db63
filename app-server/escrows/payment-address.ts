import { escrowAggregate } from '../../domain/aggregates.ts';
import { type EscrowActor, refuseUnlessAllowed } from '../../domain/escrow/decide.ts';
import { DomainError } from '../../domain/shared/errors.ts';
import type { CommandMeta } from '../commands/handle.ts';
import type { AppDeps } from '../app-deps.ts';
import { enqueueMail } from '../mail/outbox.ts';
import { publicUrl } from '../config.ts';
import { assignPaymentAddress } from './commands.ts';
import { adminConsolePath, adminEmails } from '../mail/admins.ts';
import { claimHourly } from './pool-alert.ts';

/** The address is not chosen when the escrow is asked whether it may take one. */
const NO_ADDRESS_YET = '00000000-0000-4000-8000-000000000000';

/** Each lost race means that address is taken now, so the loop ends; the cap only guards against surprises. */
const MAX_ATTEMPTS = 100;

/**
 * Make Payment: the buyer's escrow, when its rules let it take an address, gets the oldest free one; with none free
 * the admins are told and the answer is 409. takeFreeAddress reads a refusal about the address as a lost race for it
 * and would go on through every free one, so the decider is asked first whether this escrow may take one at all.
 */
export async function requestPaymentAddress(
  deps: AppDeps,
  escrowId: string,
  by: EscrowActor,
  meta: CommandMeta,
): Promise<void> {
  const { state } = await deps.store.aggregate(escrowAggregate, escrowId, { fresh: true });
  refuseUnlessAllowed(
    { type: 'requestPayment', by, address_id: NO_ADDRESS_YET, address: '' },
    state,
    meta.now ?? new Date().toISOString(),
  );
  const assigned = await takeFreeAddress(deps, escrowId, 'buyer', meta, {
    mailAdminsWhenNone: true,
    buyerId: meta.actor,
  });
  if (!assigned)
    throw new DomainError(
      'conflict',
      'No payment address is free right now; the admins have been told and will assign one shortly',
    );
}

/**
 * Gives the escrow the oldest free pool address. Two requests may pick the same one: the loser's append fails on
 * the address stream's version and it tries the next free address, as long as one is free. With none free: the
 * admins are mailed and the caller answers 409.
 */
export async function takeFreeAddress(
  deps: AppDeps,
  escrowId: string,
  by: 'buyer' | 'admin',
  meta: CommandMeta,
  options: {
    mailAdminsWhenNone: boolean;
    /** A buyer asking: MAX_UNPAID_ESCROWS applies to them. */ buyerId?: string;
  } = { mailAdminsWhenNone: true },
): Promise<boolean> {
  const holdingCap = options.buyerId ? { buyerId: options.buyerId, max: deps.config.MAX_UNPAID_ESCROWS } : undefined;
  const { db } = deps.database;
  const tried = new Set<string>();
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    let query = db
      .selectFrom('addresses')
      .select(['id', 'address_string'])
      .where('status', '=', 'available')
      .orderBy('created_at')
      .orderBy('id')
      .limit(1);
    if (tried.size) query = query.where('id', 'not in', [...tried]);
    const free = await query.executeTakeFirst();
    if (!free) break;
    tried.add(free.id);
    try {
      await assignPaymentAddress(
        deps.store,
        { escrowId, addressId: free.id, address: free.address_string, by, ...(holdingCap ? { holdingCap } : {}) },
        meta,
      );
      return true;
    } catch (error) {
      // Taken by a concurrent request: try the next one. Anything else (e.g. the escrow changed) is final.
      if (
        !(error instanceof DomainError) ||
        error.code !== 'conflict' ||
        error.reason === 'unpaid_escrow_limit' ||
        !/address/i.test(error.detail)
      )
        throw error;
    }
  }
  if (options.mailAdminsWhenNone) await mailAdmins(deps, escrowId);
  return false;
}

async function mailAdmins(deps: AppDeps, escrowId: string) {
  const { db } = deps.database;
  const admins = await adminEmails(db);
  if (admins.length === 0) return;
  // Every buyer pressing Make Payment on an empty pool would mail every admin: one mail an hour says it.
  await db.transaction().execute(async (trx) => {
    if (!(await claimHourly(trx, 'address_pool_empty_mailed'))) return;
    await enqueueMail(
      trx,
      admins.map((to) => ({
        to,
        subject: 'The payment address pool is empty',
        text: [
          `Escrow ${escrowId} is waiting for a payment address and none is free. Add addresses to the pool, then assign one in the admin console. This alert is sent at most once an hour.`,
          '',
          `Add addresses: ${publicUrl(deps.config)}${adminConsolePath.addresses}`,
          `Assign one to the escrow: ${publicUrl(deps.config)}${adminConsolePath.escrow(escrowId)}`,
        ].join('\n'),
      })),
    );
  });
}
