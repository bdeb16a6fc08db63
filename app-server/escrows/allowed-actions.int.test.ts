import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { addressAggregate, escrowAggregate } from '../../domain/aggregates.ts';
import type { EscrowCommand } from '../../domain/escrow/decide.ts';
import type { EscrowEvent } from '../../domain/escrow/events.ts';
import { evolveEscrow, initialEscrowState } from '../../domain/escrow/state.ts';
import { projections } from '../../projections/registry.ts';
import { handle } from '../commands/handle.ts';
import { createEventStore } from '../event-store/append.ts';
import type { EventStore } from '../event-store/event-store.ts';
import { readStream } from '../event-store/read.ts';
import { fixtureId } from '../testing/every-event-type.ts';
import { openTestDatabase, type TestDatabase } from '../testing/test-database.ts';
import { actingOn, actingOnRow, ESCROW_STATE_COLUMNS } from './allowed-actions.ts';
import { assignPaymentAddress, verifyPayment } from './commands.ts';

let t: TestDatabase;
let store: EventStore;
beforeAll(async () => {
  t = await openTestDatabase();
  store = createEventStore(t.db, projections);
});
beforeEach(async () => t.reset());
afterAll(async () => t.dispose());

const DAY = 24 * 60;
const ESCROW = fixtureId(1);
const ADDRESS = fixtureId(2);
const USER = fixtureId(3);
let minute = 0;
const at = (m: number) => new Date(Date.UTC(2026, 2, 1) + m * 60_000).toISOString();
const meta = () => ({ actor: USER, requestId: 'test', now: at(minute) });

/** What each side may do, and the admins' queues, as a list answers them (from the row) and as a command does (from the stream). */
async function bothWays(now: string) {
  const row = await t.db
    .selectFrom('escrows as e')
    .select(ESCROW_STATE_COLUMNS)
    .where('e.id', '=', ESCROW)
    .executeTakeFirstOrThrow();
  const { events } = await readStream(t.db, `escrow:${ESCROW}`);
  const folded = events.reduce(
    (state, event) => evolveEscrow(state, event as unknown as EscrowEvent & { occurred_at: string }),
    initialEscrowState(),
  );
  const sides = ['buyer', 'seller', 'admin'] as const;
  return {
    fromRow: sides.map((side) => actingOnRow(row, side, now)),
    fromStream: sides.map((side) => actingOn(folded, side, now)),
  };
}

type Step = EscrowCommand | 'assign' | 'verify' | { wait: number } | { proposal: string; command: EscrowCommand };

/** Runs the steps, comparing both ways after each: at its time, a day later and forty days later. */
async function walk(creator: 'buyer' | 'seller', inspectionDays: number, steps: Step[]) {
  minute = 0;
  const seen = new Set<string>();
  const escrow = (command: EscrowCommand, newId?: string) =>
    handle(store, escrowAggregate, ESCROW, command, { ...meta(), ...(newId ? { newId: () => newId } : {}) });
  await escrow({
    type: 'create',
    by: creator,
    escrow_id: ESCROW,
    created_by: USER,
    creator_side: creator,
    creator_email: 'c@example.com',
    counterparty_email: 'o@example.com',
    product_service: 'Lamp',
    description: 'Desk lamp',
    amount_cents: 50_000,
    deadline_days: 7,
    inspection_days: inspectionDays,
    pricing: { rate_cents: 5_000_000, fee_bps: 150 },
  });
  await handle(
    store,
    addressAggregate,
    ADDRESS,
    { type: 'add', address_id: ADDRESS, address: 'bc1qpool', network: 'mainnet' },
    meta(),
  );
  for (const step of ['start', ...steps] as const) {
    minute += 10;
    if (step === 'assign')
      await assignPaymentAddress(
        store,
        { escrowId: ESCROW, addressId: ADDRESS, address: 'bc1qpool', by: 'buyer' },
        meta(),
      );
    else if (step === 'verify')
      await verifyPayment(store, { escrowId: ESCROW, notes: 'seen', txid: 'a'.repeat(64) }, meta());
    else if (typeof step === 'object' && 'wait' in step) minute += step.wait;
    else if (typeof step === 'object' && 'proposal' in step) await escrow(step.command, step.proposal);
    else if (step !== 'start') await escrow(step);
    for (const later of [0, DAY, 40 * DAY]) {
      const { fromRow, fromStream } = await bothWays(at(minute + later));
      expect(fromRow, `${JSON.stringify(step)}, ${later} minutes later`).toEqual(fromStream);
      for (const acting of fromRow) {
        for (const action of acting.actions) seen.add(action);
        if (acting.ready_to_release) seen.add('(ready)');
        if (acting.refund_due) seen.add('(refund due)');
      }
    }
  }
  return seen;
}

describe('allowed_actions from the read model row (lists) equal those from the stream (commands)', () => {
  it('through a shipped deal: agreement, payment, shipment, an extended inspection, a held payout address, acceptance', async () => {
    const seen = await walk('seller', 2, [
      { type: 'agree', by: 'buyer' },
      'assign',
      { type: 'markPaid', by: 'buyer', notes: 'sent', evidence: [] },
      'verify',
      { type: 'setPayoutAddress', by: 'seller', address: 'bc1qfirst' },
      { type: 'ship', by: 'seller', method: 'shipping', carrier: 'DHL', tracking: 'JD1', note: null },
      { type: 'receive', by: 'buyer' },
      { proposal: fixtureId(10), command: { type: 'propose', by: 'buyer', kind: 'extend_inspection', days: 3 } },
      { type: 'acceptProposal', by: 'seller', proposal_id: fixtureId(10) },
      { type: 'setPayoutAddress', by: 'seller', address: 'bc1qsecond' },
      { wait: 5 * DAY },
      { type: 'acceptAfterInspection', by: 'system' },
      { type: 'freeze', by: 'admin', reason: 'Check' },
      { type: 'unfreeze', by: 'admin', reason: 'Fine' },
      { type: 'release', by: 'admin', notes: 'done', txid: null },
    ]);
    expect([...seen]).toEqual(
      expect.arrayContaining([
        'agree',
        'mark_paid',
        'verify_payment',
        'ship',
        'receive',
        'confirm_receipt',
        'accept_proposal',
        'withdraw_proposal',
        'release',
        'unfreeze',
        '(ready)',
      ]),
    );
  });

  it('through a dispute after receipt, and a split agreed in it', async () => {
    const seen = await walk('buyer', 3, [
      'assign',
      { type: 'markPaid', by: 'buyer', notes: 'sent', evidence: [] },
      'verify',
      { type: 'agree', by: 'seller' },
      { type: 'ship', by: 'seller', method: 'digital' },
      { type: 'receive', by: 'buyer' },
      { type: 'openDispute', by: 'buyer', reason: 'Half of it' },
      { type: 'setPayoutAddress', by: 'seller', address: 'bc1qseller' },
      { type: 'setPayoutAddress', by: 'buyer', address: 'bc1qbuyer' },
      { proposal: fixtureId(11), command: { type: 'propose', by: 'seller', kind: 'split', seller_percent: 60 } },
      { type: 'acceptProposal', by: 'buyer', proposal_id: fixtureId(11) },
    ]);
    expect([...seen]).toEqual(expect.arrayContaining(['resolve', 'decline_proposal', '(ready)']));
  });

  it('through terms declined after payment, and a deal with no inspection period', async () => {
    const declined = await walk('buyer', 3, [
      'assign',
      { type: 'markPaid', by: 'buyer', notes: 'sent', evidence: [] },
      { type: 'decline', by: 'seller', reason: 'Sold' },
      'verify',
    ]);
    expect([...declined]).toContain('(refund due)');
    await t.reset();
    const instant = await walk('buyer', 0, [
      'assign',
      { type: 'markPaid', by: 'buyer', notes: 'sent', evidence: [] },
      'verify',
      { type: 'agree', by: 'seller' },
      { type: 'ship', by: 'seller', method: 'service' },
      { type: 'receive', by: 'buyer' },
    ]);
    expect([...instant]).toContain('receive');
  });
});
