import type { Transaction } from 'kysely';
import { addressAggregate, escrowAggregate } from '../../domain/aggregates.ts';
import type { EscrowActor, EscrowCommand } from '../../domain/escrow/decide.ts';
import { DomainError, notFound } from '../../domain/shared/errors.ts';
import { passSecondFactor } from '../accounts/second-factor.ts';
import {
  type CommandMeta,
  decideContext,
  handle,
  handleAll,
  type HandleOptions,
  part,
  type Part,
} from '../commands/handle.ts';
import { decideEscrow } from '../../domain/escrow/decide.ts';
import { type EscrowState, evolveEscrow } from '../../domain/escrow/state.ts';
import { streamId } from '../../domain/events.ts';
import type { Database } from '../db/schema.ts';
import type { EventStore } from '../event-store/event-store.ts';
import type { AppDeps, SignedInUser } from '../app-deps.ts';
import { checkEvidence } from './evidence.ts';
import { guardMoneyAction } from './money-guard.ts';
import { disputeById } from './queries.ts';
import { checkAddressProof } from './address-proof.ts';
import { checkEscrowPaymentProof, proofOfEvent, proofRow, type ProofRequest, txidOfProof } from './payment-proof.ts';
import type { ProvenPayment } from '../../domain/bitcoin/spv.ts';

/**
 * Every command on an escrow, and the one way to run one: routes, jobs and services come here, never to the
 * handler. The rules are the escrow decider's; what is here is only what the decider cannot see: which address goes
 * with the escrow, an evidence file's bytes, the second factor a replaced address takes, the money guard before
 * money moves, the escrow a dispute id names.
 */

/** How a command on the escrow runs: what goes with its append, and a look at the stream before it is decided. */
type EscrowOptions = HandleOptions & Pick<Part<EscrowState, EscrowCommand>, 'check'>;

/** The escrow after a command: its state (the one read, with the new events folded on) and its view (view.ts). */
export interface EscrowAfter {
  state: EscrowState;
  view: string;
}

/** A command on the escrow stream alone. */
export const onEscrow = (
  store: EventStore,
  escrowId: string,
  command: EscrowCommand,
  meta: CommandMeta,
  options: EscrowOptions & { newStream?: boolean } = {},
) => handle(store, escrowAggregate, escrowId, command, meta, options);

/**
 * Gives the escrow a pool address: the escrow and the address streams move together or not at all. `holdingCap`
 * (a buyer asking): the append is refused when that buyer would then hold more pool addresses on unpaid escrows than
 * the cap. It is counted inside the append's transaction, after its rows are written and under the chain head's row
 * lock (every append holds it to commit), so concurrent requests are counted one after the other.
 */
export function assignPaymentAddress(
  store: EventStore,
  input: {
    escrowId: string;
    addressId: string;
    address: string;
    by: EscrowActor;
    holdingCap?: { buyerId: string; max: number };
  },
  meta: CommandMeta,
) {
  const cap = input.holdingCap;
  return handleAll(
    store,
    [
      part({
        aggregate: escrowAggregate,
        id: input.escrowId,
        command: {
          type: input.by === 'admin' ? 'assignAddress' : 'requestPayment',
          by: input.by,
          address_id: input.addressId,
          address: input.address,
        },
      }),
      part({
        aggregate: addressAggregate,
        id: input.addressId,
        command: { type: 'assign', escrow_id: input.escrowId },
      }),
    ],
    meta,
    cap ? { alsoWrite: (trx) => refuseOverCap(trx, cap, input.escrowId) } : {},
  );
}

/** Pool addresses held by the buyer's escrows that are not paid (still `assigned`: verifying marks an address used). */
async function refuseOverCap(trx: Transaction<Database>, cap: { buyerId: string; max: number }, escrowId: string) {
  const held = await trx
    .selectFrom('addresses as a')
    .innerJoin('escrows as e', 'e.id', 'a.assigned_to_escrow_id')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('a.status', '=', 'assigned')
    .where((eb) => eb.or([eb('e.buyer_id', '=', cap.buyerId), eb('e.id', '=', escrowId)]))
    .executeTakeFirstOrThrow();
  if (Number(held.n) > cap.max) {
    throw new DomainError(
      'conflict',
      `You already have ${cap.max} unpaid escrows holding a payment address; pay or cancel one of them before asking for another`,
      {},
      'unpaid_escrow_limit',
    );
  }
}

/**
 * A command on the escrow that also settles its address: verifying marks it used (money went through it, so it is
 * never handed out again); cancelling or expiring an unpaid escrow frees it for the next buyer.
 */
async function withAddress(
  store: EventStore,
  escrowId: string,
  command: EscrowCommand,
  addressCommand: 'markUsed' | 'free',
  meta: CommandMeta,
  options: Omit<EscrowOptions, 'attempts'> = {},
) {
  // Which address: read first, and the command is decided on that read (one try: a conflict is reported); the
  // expected versions refuse the append if the escrow changed meanwhile.
  const read = await store.aggregate(escrowAggregate, escrowId, { fresh: true });
  const addressId = read.state.context.address_id;
  const { check, ...append } = options;
  const events = await handleAll(
    store,
    [
      part({ aggregate: escrowAggregate, id: escrowId, command, loaded: read, ...(check ? { check } : {}) }),
      ...(addressId
        ? [part({ aggregate: addressAggregate, id: addressId, command: { type: addressCommand, escrow_id: escrowId } })]
        : []),
    ],
    meta,
    append,
  );
  const stream = streamId(escrowAggregate.streamType, escrowId);
  return { events, state: events.filter((e) => e.stream_id === stream).reduce(escrowAggregate.evolve, read.state) };
}

/**
 * The admin saw the payment on the chain: funded, and the address is used. With a proof (checked by the caller), the
 * event records what it proves and the proof's bytes are stored in the same transaction (see payment-proof.ts).
 */
export function verifyPayment(
  store: EventStore,
  input: {
    escrowId: string;
    notes: string;
    txid: string | null;
    proof?: { proven: ProvenPayment; request: ProofRequest } | undefined;
  },
  meta: CommandMeta,
  options: Omit<EscrowOptions, 'attempts'> = {},
) {
  const { proof } = input;
  const command: EscrowCommand = {
    type: 'verifyPayment',
    by: 'admin',
    notes: input.notes,
    txid: proof ? txidOfProof(input.txid, proof.proven) : input.txid,
    ...(proof ? { proof: proofOfEvent(proof.proven), accept_partial: proof.request.accept_partial } : {}),
  };
  if (!proof) return withAddress(store, input.escrowId, command, 'markUsed', meta, options);
  return withAddress(store, input.escrowId, command, 'markUsed', meta, {
    ...options,
    alsoWrite: async (trx, stored) => {
      await trx
        .insertInto('payment_proofs')
        .values(proofRow(input.escrowId, proof.proven, proof.request))
        .onConflict((oc) => oc.doNothing())
        .execute();
      await options.alsoWrite?.(trx, stored);
    },
  });
}

/** Cancel (by the creator) or expire (by the system) an unpaid escrow, freeing its address. */
export function endUnpaid(
  store: EventStore,
  input: { escrowId: string; how: 'cancel' | 'expire'; by: EscrowActor },
  meta: CommandMeta,
) {
  return withAddress(store, input.escrowId, { type: input.how, by: input.by }, 'free', meta);
}

/**
 * The counterparty declines the terms. When the machine ends the escrow by it (unpaid), its address goes back to the
 * pool in the same append; after a payment mark it stays with the escrow, which the admins refund.
 */
export function declineTerms(
  store: EventStore,
  input: { escrowId: string; by: EscrowActor; reason: string },
  meta: CommandMeta,
) {
  return freeingAddressIfEnded(store, input.escrowId, { type: 'decline', by: input.by, reason: input.reason }, meta);
}

/**
 * A command that may end an unpaid escrow (a decline of its terms, an accepted cancel proposal): when the machine ends
 * it by the command, its address goes back to the pool in the same append.
 */
export async function freeingAddressIfEnded(
  store: EventStore,
  escrowId: string,
  command: EscrowCommand,
  meta: CommandMeta,
) {
  const { state } = await store.aggregate(escrowAggregate, escrowId, { fresh: true });
  const after = decideEscrow(command, state, decideContext(meta)).reduce(evolveEscrow, state);
  if (after.snapshot.status === 'done') return withAddress(store, escrowId, command, 'free', meta);
  return onEscrow(store, escrowId, command, meta);
}

/** An admin cancels an unpaid escrow with a reason (mailed to both parties), freeing its address for the next buyer. */
export function cancelUnpaidByAdmin(store: EventStore, input: { escrowId: string; reason: string }, meta: CommandMeta) {
  return withAddress(store, input.escrowId, { type: 'cancelByAdmin', by: 'admin', reason: input.reason }, 'free', meta);
}

type Txid = string | null;

/** A money action's result as the escrow after it: the state the command left and the view its append wrote. */
const asEscrowAfter = ({ result, view }: { result: { state: EscrowState }; view: string }): EscrowAfter => ({
  state: result.state,
  view,
});

/**
 * The admin's verdict on a marked payment: seen on the chain (funded, the address used) or not (the buyer may mark
 * again). Like every money action, only while the log and the read model agree (see money-guard).
 */
export async function reviewPayment(
  deps: AppDeps,
  escrowId: string,
  input: { verified: boolean; notes: string; txid: Txid; proof?: ProofRequest },
  meta: CommandMeta,
): Promise<EscrowAfter> {
  const guarded = await guardMoneyAction(deps, escrowId, async (guard) => {
    if (!input.verified)
      return onEscrow(deps.store, escrowId, { type: 'rejectPayment', by: 'admin', notes: input.notes }, meta, guard);
    const proof = input.proof
      ? { proven: await checkEscrowPaymentProof(deps, escrowId, input.proof), request: input.proof }
      : undefined;
    return verifyPayment(deps.store, { escrowId, notes: input.notes, txid: input.txid, proof }, meta, guard);
  });
  return asEscrowAfter(guarded);
}

/** The money held goes to the seller (release) or back to the buyer (refund), at the address the admin was shown. */
export async function payOut(
  deps: AppDeps,
  escrowId: string,
  input: { to: 'release' | 'refund'; notes: string; txid: Txid; expected_address: string | undefined },
  meta: CommandMeta,
): Promise<EscrowAfter> {
  const guarded = await guardMoneyAction(deps, escrowId, (guard) =>
    onEscrow(
      deps.store,
      escrowId,
      { type: input.to, by: 'admin', notes: input.notes, txid: input.txid, expected_address: input.expected_address },
      meta,
      guard,
    ),
  );
  return asEscrowAfter(guarded);
}

/** What an admin's resolution says: the outcome, the split if any, the transaction and the addresses seen. */
export type Resolution = Omit<Extract<EscrowCommand, { type: 'resolveDispute' }>, 'type' | 'by' | 'dispute_id'>;

/** Resolves one dispute by its id, on the escrow it belongs to; answers that escrow after it. */
export async function resolveDispute(
  deps: AppDeps,
  disputeId: string,
  input: Resolution,
  meta: CommandMeta,
): Promise<EscrowAfter> {
  const dispute = await disputeById(deps.database.db, disputeId);
  if (!dispute) throw notFound('Dispute not found');
  return resolveEscrow(deps, dispute.escrow_id, input, meta, disputeId);
}

/**
 * Executes the refund or split both parties of an escrow agreed to (contract 7.5), or resolves its open dispute (the
 * one named, if a dispute is named): the escrow's rules say which, and refuse it when neither is there.
 */
export async function resolveEscrow(
  deps: AppDeps,
  escrowId: string,
  input: Resolution,
  meta: CommandMeta,
  disputeId?: string,
): Promise<EscrowAfter> {
  const command = {
    type: 'resolveDispute',
    by: 'admin',
    ...(disputeId ? { dispute_id: disputeId } : {}),
    ...input,
  } as const;
  const guarded = await guardMoneyAction(deps, escrowId, (guard) =>
    onEscrow(deps.store, escrowId, command, meta, guard),
  );
  return asEscrowAfter(guarded);
}

/**
 * The buyer says the money is sent, with notes and optionally a file. The file is checked by its bytes before
 * anything is written; its bytes are stored in the same transaction as the `PaymentMarked` event that records
 * its SHA-256, so there is never an event without its file or a file without its event.
 */
export async function markPaid(
  store: EventStore,
  input: {
    escrowId: string;
    by: EscrowActor;
    notes: string;
    file: { name: string; type: string; bytes: Uint8Array } | null;
  },
  meta: CommandMeta,
) {
  const evidence = input.file ? [await checkEvidence(input.file.name, input.file.type, input.file.bytes)] : [];
  return onEscrow(
    store,
    input.escrowId,
    { type: 'markPaid', by: input.by, notes: input.notes, evidence: evidence.map((e) => e.ref) },
    meta,
    {
      alsoWrite: async (trx) => {
        if (!evidence.length) return;
        await trx
          .insertInto('evidence_files')
          .values(
            evidence.map((e) => ({
              evidence_id: e.ref.evidence_id,
              escrow_id: input.escrowId,
              content: e.content,
              sha256: e.ref.sha256,
            })),
          )
          .execute();
      },
    },
  );
}

/**
 * The seller's payout or the buyer's refund address. Which changes take the second factor and are held is the
 * decider's rule; here a code that came is checked (and used up) first, so the decider knows whether it passed.
 */
export async function setPayoutAddress(
  deps: AppDeps,
  user: SignedInUser,
  input: {
    escrowId: string;
    by: EscrowActor;
    address: string;
    totpCode: string | undefined;
    signature?: string | undefined;
  },
  meta: CommandMeta,
) {
  const signature = checkAddressProof(deps, input);
  let secondFactor: 'passed' | 'missing' | 'not_enabled' = 'not_enabled';
  if (user.totp_enabled) {
    secondFactor = input.totpCode?.trim() ? 'passed' : 'missing';
    if (secondFactor === 'passed') await passSecondFactor(deps, user, input.totpCode, { meta });
  }
  return onEscrow(
    deps.store,
    input.escrowId,
    {
      type: 'setPayoutAddress',
      by: input.by,
      address: input.address,
      hold_hours: deps.config.PAYOUT_ADDRESS_HOLD_HOURS,
      second_factor: secondFactor,
      ...(signature ? { signature } : {}),
    },
    meta,
  );
}
