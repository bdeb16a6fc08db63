import type { Kysely } from 'kysely';
import { addressAggregate, escrowAggregate } from '../../domain/aggregates.ts';
import type { EscrowActor, EscrowCommand } from '../../domain/escrow/decide.ts';
import type { Database } from '../db/schema.ts';
import type { AppendOptions, EventStore } from '../event-store/append.ts';
import { type CommandMeta, loadAggregate } from './execute.ts';
import { executeAcross, part } from './execute-many.ts';

type Deps = { db: Kysely<Database>; store: EventStore };
type Options = Pick<AppendOptions, 'alsoWrite'>;

/** Gives the escrow a pool address: the escrow and the address streams move together or not at all. */
export function assignPaymentAddress(
  deps: Deps,
  input: { escrowId: string; addressId: string; address: string; by: EscrowActor },
  meta: CommandMeta,
  options: Options = {},
) {
  return executeAcross(
    deps,
    [
      part({
        aggregate: escrowAggregate,
        id: input.escrowId,
        command: { type: 'assignAddress', by: input.by, address_id: input.addressId, address: input.address },
      }),
      part({
        aggregate: addressAggregate,
        id: input.addressId,
        command: { type: 'assign', escrow_id: input.escrowId },
      }),
    ],
    meta,
    options,
  );
}

/**
 * A command on the escrow that also settles its address: verifying marks it used (money went through it, so it is
 * never handed out again); cancelling or expiring an unpaid escrow frees it for the next buyer.
 */
async function withAddress(
  deps: Deps,
  escrowId: string,
  command: EscrowCommand,
  addressCommand: 'markUsed' | 'free',
  meta: CommandMeta,
  options: Options,
) {
  // Which address: read first; the expected versions refuse the append if the escrow changed meanwhile.
  const { state } = await loadAggregate(deps.db, escrowAggregate, escrowId);
  const addressId = state.context.address_id;
  return executeAcross(
    deps,
    [
      part({ aggregate: escrowAggregate, id: escrowId, command }),
      ...(addressId
        ? [part({ aggregate: addressAggregate, id: addressId, command: { type: addressCommand, escrow_id: escrowId } })]
        : []),
    ],
    meta,
    options,
  );
}

export function verifyPayment(
  deps: Deps,
  input: { escrowId: string; notes: string; txid: string | null },
  meta: CommandMeta,
  options: Options = {},
) {
  const command = { type: 'verifyPayment', by: 'admin', notes: input.notes, txid: input.txid } as const;
  return withAddress(deps, input.escrowId, command, 'markUsed', meta, options);
}

/** Cancel (by the creator) or expire (by the system) an unpaid escrow, freeing its address. */
export function endUnpaid(
  deps: Deps,
  input: { escrowId: string; how: 'cancel' | 'expire'; by: EscrowActor },
  meta: CommandMeta,
  options: Options = {},
) {
  return withAddress(deps, input.escrowId, { type: input.how, by: input.by }, 'free', meta, options);
}
