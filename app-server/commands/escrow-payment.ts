import type { Kysely } from 'kysely';
import { addressAggregate, escrowAggregate } from '../../domain/aggregates.ts';
import type { EscrowActor } from '../../domain/escrow/decide.ts';
import type { Database } from '../db/schema.ts';
import type { EventStore } from '../event-store/append.ts';
import { type CommandMeta, loadAggregate } from './execute.ts';
import { executeAcross, part } from './execute-many.ts';

type Deps = { db: Kysely<Database>; store: EventStore };

/** Gives the escrow a pool address: the escrow and the address streams move together or not at all. */
export function assignPaymentAddress(
  deps: Deps,
  input: { escrowId: string; addressId: string; address: string; by: EscrowActor },
  meta: CommandMeta,
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
  );
}

/** Verifies the payment; money went through the escrow's address, so it is never handed out again. */
export async function verifyPayment(
  deps: Deps,
  input: { escrowId: string; notes: string; txid: string | null },
  meta: CommandMeta,
) {
  // Which address: read first; the expected versions refuse the append if the escrow changed meanwhile.
  const { state } = await loadAggregate(deps.db, escrowAggregate, input.escrowId);
  const addressId = state.context.address_id;
  return executeAcross(
    deps,
    [
      part({
        aggregate: escrowAggregate,
        id: input.escrowId,
        command: { type: 'verifyPayment', by: 'admin', notes: input.notes, txid: input.txid },
      }),
      ...(addressId
        ? [
            part({
              aggregate: addressAggregate,
              id: addressId,
              command: { type: 'markUsed', escrow_id: input.escrowId },
            }),
          ]
        : []),
    ],
    meta,
  );
}
