import { describe, expect, it } from 'vitest';
import { escrowAggregate } from '../aggregates.ts';
import { DomainError } from '../shared/errors.ts';
import { ACTOR, given, NOW } from '../testing/given.ts';
import { decideEscrow, type EscrowCommand, refuseUnlessAllowed } from './decide.ts';
import type { EscrowEvent } from './events.ts';
import { foldEscrow } from './state.ts';
import {
  ADDRESS_ID,
  buyerRefund,
  CLOCK_PROPOSAL_ID as PID,
  CREATOR_ID,
  ESCROW_ID,
  histories,
  proposalAccepted as accepted,
  proposalMade as made,
  sample,
  sellerPayout,
  split70,
  TXID,
} from './test-fixtures.ts';

/**
 * The exact refusal a person reads, per command and situation: the rule the decider names when the lifecycle says
 * no, and the status it names when no rule of its own applies.
 */
const escrow = (past: EscrowEvent[], now = NOW) => given(escrowAggregate, past, { now });

function refusal(past: EscrowEvent[], command: EscrowCommand, now = NOW) {
  const state = foldEscrow(past.map((e) => ({ ...e, occurred_at: '2025-12-31T00:00:00.000Z' })));
  try {
    decideEscrow(command, state, { now, newId: () => PID, actor: ACTOR });
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    return { code: error.code, detail: error.detail, reason: error.reason };
  }
  throw new Error(`${command.type} was not refused`);
}
const notAllowed = (detail: string) => ({ code: 'transition_not_allowed', detail, reason: undefined });
const forbidden = (detail: string) => ({ code: 'forbidden', detail, reason: undefined });
const invalid = (detail: string) => ({ code: 'invalid_input', detail, reason: undefined });

/** Escrows under this round's rules (inspection_days set): agreement, shipment and inspection apply. */
const created = (creator: 'buyer' | 'seller', inspection_days = 3): EscrowEvent => ({
  type: 'EscrowCreated',
  data: { ...sample.EscrowCreated.data, creator_side: creator, inspection_days },
});
const agreedBy = (side: 'buyer' | 'seller'): EscrowEvent => ({ type: 'TermsAgreed', data: { side } });
const declinedBy = (side: 'buyer' | 'seller'): EscrowEvent => ({
  type: 'TermsDeclined',
  data: { side, reason: 'price changed' },
});
const adminAddress: EscrowEvent = {
  type: 'PaymentAddressAssigned',
  data: { ...sample.PaymentAddressAssigned.data, assigned_via: 'admin' },
};
const address = sample.PaymentAddressAssigned as EscrowEvent;
const marked = sample.PaymentMarked as EscrowEvent;
const verified = sample.PaymentVerified as EscrowEvent;
const shipped = sample.ShipmentRecorded as EscrowEvent;
const confirmed = sample.ReceiptConfirmed as EscrowEvent;
const dispute = sample.DisputeOpened as EscrowEvent;
/** The seller declined after the buyer paid: the escrow stays funded, a refund owed. */
const fundedDeclined = [created('buyer'), address, marked, declinedBy('seller'), verified];
/** A seller's escrow the buyer has not agreed to, disputed before any payment. */
const sellerDisputedUnagreed = [created('seller'), dispute];
const legacyFunded = histories.funded as EscrowEvent[];
const disputed = histories.disputedFromFunded as EscrowEvent[];
const without = (events: EscrowEvent[], left: EscrowEvent) => events.filter((e) => e !== left);
const heldUntil = '2026-01-03T00:00:00.000Z';
const replaced = (side: 'buyer' | 'seller'): EscrowEvent => ({
  type: 'PayoutAddressSet',
  data: {
    side,
    address: `bc1qnew${side}`,
    replaces: side === 'seller' ? 'bc1qpayout' : 'bc1qrefund',
    held_until: heldUntil,
  },
});
const resolve = (
  extra: Partial<Extract<EscrowCommand, { type: 'resolveDispute' }>> = {},
): Extract<EscrowCommand, { type: 'resolveDispute' }> => ({
  type: 'resolveDispute',
  by: 'admin',
  outcome: 'talked it through',
  resolution: null,
  seller_percent: null,
  txid: null,
  ...extra,
});
const createCommand = (
  overrides: Partial<Extract<EscrowCommand, { type: 'create' }>> = {},
): Extract<EscrowCommand, { type: 'create' }> => ({
  type: 'create',
  by: 'buyer',
  escrow_id: ESCROW_ID,
  created_by: CREATOR_ID,
  creator_side: 'buyer',
  creator_email: 'buyer@example.com',
  counterparty_email: 'seller@example.com',
  product_service: 'Laptop',
  description: 'A used laptop',
  amount_cents: 100_000,
  deadline_days: 7,
  pricing: { rate_cents: 5_000_000, fee_bps: 150 },
  ...overrides,
});

describe('who may give a command: the refusal names them', () => {
  it('names the counterparty for agree and decline, the one side or several for the rest', () => {
    expect(refusal([created('buyer')], { type: 'decline', by: 'buyer', reason: 'no' })).toEqual(
      forbidden('Only the counterparty can decline this escrow; its creator agreed by creating it'),
    );
    expect(refusal(histories.pendingFresh, { type: 'openDispute', by: 'admin', reason: 'x' })).toEqual(
      forbidden('Only the buyer or the seller can open a dispute on this escrow'),
    );
    expect(refusal(histories.pendingFresh, { type: 'expire', by: 'buyer' })).toEqual(
      forbidden('Only the system can expire this escrow'),
    );
    expect(refusal(histories.pendingFresh, { type: 'freeze', by: 'seller', reason: 'x' })).toEqual(
      forbidden('Only the admin can freeze this escrow'),
    );
    expect(refusal(histories.pendingFresh, { type: 'postMessage', by: 'system', text: 'hi' })).toEqual(
      forbidden('Only the buyer or the seller or the admin can post a message on this escrow'),
    );
  });

  it('says an escrow that does not exist is not created yet', () => {
    expect(refusal([], { type: 'freeze', by: 'admin', reason: 'x' })).toEqual(
      notAllowed('Cannot freeze an escrow that is not created yet'),
    );
  });
});

describe('create: limits', () => {
  it('refuses a second creation, in words', () => {
    expect(refusal(histories.pendingFresh, createCommand())).toEqual({
      code: 'conflict',
      detail: 'This escrow already exists',
      reason: undefined,
    });
  });

  it('compares and records the e-mails trimmed and in lower case', () => {
    expect(refusal([], createCommand({ creator_email: ' seller@example.com ' }))).toEqual(
      invalid('The counterparty e-mail must differ from your own'),
    );
    expect(refusal([], createCommand({ counterparty_email: ' buyer@example.com ' }))).toEqual(
      invalid('The counterparty e-mail must differ from your own'),
    );
    const [event] = escrow([])
      .when(createCommand({ creator_email: ' B@Example.com ', counterparty_email: ' S@Example.com ' }))
      .events();
    expect(event).toMatchObject({ data: { buyer_email: 'b@example.com', seller_email: 's@example.com' } });
  });

  it('takes a deadline of 1 to 90 days and an inspection of 0 to 30 days, whole', () => {
    const dueAfter = (deadline_days: number) => escrow([]).when(createCommand({ deadline_days })).events()[0];
    expect(dueAfter(1)).toMatchObject({ data: { deadline_days: 1, payment_due_at: '2026-01-02T00:00:00.000Z' } });
    expect(dueAfter(90)).toMatchObject({ data: { deadline_days: 90, payment_due_at: '2026-04-01T00:00:00.000Z' } });
    for (const inspection_days of [0, 30]) {
      expect(escrow([]).when(createCommand({ inspection_days })).events()[0]).toMatchObject({
        data: { inspection_days },
      });
    }
    for (const inspection_days of [-1, 31, 2.5]) {
      expect(refusal([], createCommand({ inspection_days }))).toEqual(
        invalid('inspection_days must be a whole number from 0 to 30'),
      );
    }
  });

  it('refuses an amount of exactly the dust limit in satoshis, takes one satoshi more', () => {
    const pricing = { rate_cents: 100_000_000, fee_bps: 0 };
    expect(refusal([], createCommand({ amount_cents: 546, pricing }))).toEqual(
      invalid('amount_usd is too small: 546 satoshis at the current rate, and Bitcoin needs more than 546'),
    );
    expect(
      escrow([])
        .when(createCommand({ amount_cents: 547, pricing }))
        .events()[0],
    ).toMatchObject({
      data: { amount_sats: 547 },
    });
  });

  it('binds the counterparty side at once when the counterparty already has an account', () => {
    const other = '00000000-0000-4000-8000-00000000bbbb';
    const [, boundSeller] = escrow([])
      .when(createCommand({ counterparty_id: other }))
      .events();
    expect(boundSeller).toEqual({ type: 'PartyBound', data: { side: 'seller', user_id: other } });
    const [, boundBuyer] = escrow([])
      .when(
        createCommand({
          by: 'seller',
          creator_side: 'seller',
          creator_email: 'seller@example.com',
          counterparty_email: 'buyer@example.com',
          counterparty_id: other,
        }),
      )
      .events();
    expect(boundBuyer).toEqual({ type: 'PartyBound', data: { side: 'buyer', user_id: other } });
  });
});

describe('payment address and payment mark', () => {
  const take = { type: 'requestPayment', by: 'buyer', address_id: ADDRESS_ID, address: 'bc1qx' } as const;

  it('names the status or the declined terms when no address can be taken', () => {
    expect(refusal(legacyFunded, take)).toEqual(
      notAllowed('Cannot request a payment address for an escrow that is funded'),
    );
    expect(refusal(fundedDeclined, take)).toEqual(notAllowed('The terms of this escrow were declined'));
    expect(refusal(sellerDisputedUnagreed, take)).toEqual(
      notAllowed('Cannot request a payment address for an escrow that is disputed'),
    );
  });

  it("records no agreement for an admin's assignment, nor for a buyer who created the escrow", () => {
    escrow([created('seller')])
      .when({ type: 'assignAddress', by: 'admin', address_id: ADDRESS_ID, address: 'bc1qx' })
      .then([
        { type: 'PaymentAddressAssigned', data: { address_id: ADDRESS_ID, address: 'bc1qx', assigned_via: 'admin' } },
      ]);
    escrow([created('buyer')])
      .when(take)
      .then([
        { type: 'PaymentAddressAssigned', data: { address_id: ADDRESS_ID, address: 'bc1qx', assigned_via: 'buyer' } },
      ]);
  });

  it('agrees for the buyer who marks paid the address an admin assigned on a seller’s escrow', () => {
    escrow([created('seller'), adminAddress])
      .when({ type: 'markPaid', by: 'buyer', notes: 'sent', evidence: [] })
      .then([agreedBy('buyer'), { type: 'PaymentMarked', data: { notes: 'sent', evidence: [] } }]);
  });

  it('says why a payment cannot be marked', () => {
    const mark: EscrowCommand = { type: 'markPaid', by: 'buyer', notes: '', evidence: [] };
    expect(refusal(histories.pendingMarked, mark)).toEqual(
      notAllowed('The payment is already marked as sent; an admin is checking it'),
    );
    expect(refusal(legacyFunded, mark)).toEqual(notAllowed('Cannot mark as paid an escrow that is funded'));
    expect(refusal(histories.disputedFromPending, mark)).toEqual(
      notAllowed('Cannot mark as paid an escrow that is disputed'),
    );
    expect(refusal(sellerDisputedUnagreed, mark)).toEqual(notAllowed('Cannot mark as paid an escrow that is disputed'));
  });

  it('refuses a partial payment unless the admin accepts it', () => {
    const proof = {
      block_hash: 'b'.repeat(64),
      confirmations: 1,
      received_sats: 2_029_999,
      proof_sha256: 'c'.repeat(64),
      work_judged: true,
    };
    const verify = { type: 'verifyPayment', by: 'admin', notes: ' seen ', txid: TXID, proof } as const;
    expect(refusal(histories.pendingMarked, verify)).toEqual(
      invalid('only 2029999 of the 2030000 satoshis arrived; set accept_partial=true to accept it'),
    );
    escrow(histories.pendingMarked)
      .when({ ...verify, accept_partial: true })
      .then([{ type: 'PaymentVerified', data: { notes: 'seen', txid: TXID, proof } }]);
    const whole = { ...proof, received_sats: 2_030_000 };
    escrow(histories.pendingMarked)
      .when({ ...verify, proof: whole })
      .then([{ type: 'PaymentVerified', data: { notes: 'seen', txid: TXID, proof: whole } }]);
  });
});

describe('release and refund: the addresses the admin saw', () => {
  const release = { type: 'release', by: 'admin', notes: '', txid: null } as const;
  const refund = { type: 'refund', by: 'admin', notes: '', txid: null } as const;

  it('checks no address when the admin gave none, and passes the one they saw', () => {
    for (const expected_address of [null, '', 'bc1qpayout']) {
      expect(
        escrow(legacyFunded)
          .when({ ...release, expected_address })
          .events()[0],
      ).toMatchObject({
        type: 'EscrowReleased',
      });
    }
    expect(
      escrow(legacyFunded)
        .when({ ...refund, expected_address: 'bc1qrefund' })
        .events()[0],
    ).toMatchObject({
      type: 'EscrowRefunded',
    });
  });

  it("names the buyer's refund address when it changed", () => {
    expect(refusal(legacyFunded, { ...refund, expected_address: 'bc1qother' })).toEqual({
      code: 'conflict',
      detail:
        "The buyer's refund address changed: you saw bc1qother, it is now bc1qrefund. Reload the escrow and check it again",
      reason: 'address_changed',
    });
  });

  it('names the status of an unfunded escrow, whatever address the admin saw', () => {
    expect(refusal(histories.pendingFresh, { ...release, expected_address: 'bc1qother' })).toEqual(
      notAllowed('Cannot release an escrow that is pending_payment'),
    );
    expect(refusal(histories.pendingFresh, { ...refund, expected_address: 'bc1qother' })).toEqual(
      notAllowed('Cannot refund an escrow that is pending_payment'),
    );
  });

  it('names the held address and until when it is held', () => {
    expect(refusal([...legacyFunded, replaced('seller')], release)).toEqual(
      notAllowed(
        "The seller's payout address was replaced recently; money cannot go to it before 3 Jan 2026, 00:00 UTC",
      ),
    );
    expect(refusal([...legacyFunded, replaced('buyer')], refund)).toEqual(
      notAllowed(
        "The buyer's refund address was replaced recently; money cannot go to it before 3 Jan 2026, 00:00 UTC",
      ),
    );
  });
});

describe('payout and refund addresses', () => {
  it("compares with the caller's own address: the buyer's refund address, the seller's payout address", () => {
    escrow(legacyFunded).when({ type: 'setPayoutAddress', by: 'buyer', address: 'bc1qrefund' }).then([]);
    escrow(legacyFunded)
      .when({ type: 'setPayoutAddress', by: 'buyer', address: 'bc1qnew' })
      .then([
        {
          type: 'PayoutAddressSet',
          data: { side: 'buyer', address: 'bc1qnew', replaces: 'bc1qrefund', held_until: null },
        },
      ]);
  });

  it('records a proof for the same address without holding it anew', () => {
    escrow(legacyFunded)
      .when({ type: 'setPayoutAddress', by: 'seller', address: 'bc1qpayout', signature: 'sig', hold_hours: 24 })
      .then([
        {
          type: 'PayoutAddressSet',
          data: { side: 'seller', address: 'bc1qpayout', replaces: 'bc1qpayout', held_until: null, signature: 'sig' },
        },
      ]);
  });

  it("asks the buyer's second factor to replace the refund address", () => {
    expect(
      refusal(legacyFunded, {
        type: 'setPayoutAddress',
        by: 'buyer',
        address: 'bc1qnew',
        second_factor: 'missing',
      }),
    ).toEqual({
      code: 'invalid_input',
      detail: '2FA code required to replace your refund address',
      reason: 'totp_required',
    });
  });
});

describe('resolveDispute: what it checks and the refusals it names', () => {
  it('refuses on a funded escrow with no dispute and no settlement, before reading the outcome', () => {
    expect(refusal(legacyFunded, resolve({ outcome: '' }))).toEqual(
      notAllowed('There is no open dispute or agreed settlement to resolve on an escrow that is funded'),
    );
    expect(refusal(histories.pendingFresh, resolve())).toEqual(
      notAllowed('There is no open dispute or agreed settlement to resolve on an escrow that is pending_payment'),
    );
  });

  it('takes a split of 1% and of 99% to the seller', () => {
    for (const seller_percent of [1, 99]) {
      expect(
        escrow(disputed)
          .when(resolve({ resolution: 'split', seller_percent }))
          .events()[0],
      ).toMatchObject({
        data: { resolution: 'split', seller_percent },
      });
    }
  });

  it('checks the address each resolution pays, and only those', () => {
    const changed = (what: string, saw: string, now: string) => ({
      code: 'conflict',
      detail: `The ${what} changed: you saw ${saw}, it is now ${now}. Reload the escrow and check it again`,
      reason: 'address_changed',
    });
    expect(refusal(disputed, resolve({ resolution: 'release', expected_address: 'bc1qother' }))).toEqual(
      changed("seller's payout address", 'bc1qother', 'bc1qpayout'),
    );
    expect(refusal(disputed, resolve({ resolution: 'refund', expected_address: 'bc1qother' }))).toEqual(
      changed("buyer's refund address", 'bc1qother', 'bc1qrefund'),
    );
    expect(
      refusal(
        without(disputed, buyerRefund),
        resolve({ resolution: 'split', seller_percent: 50, expected_refund_address: 'bc1qother' }),
      ),
    ).toEqual(changed("buyer's refund address", 'bc1qother', 'not set'));
    expect(
      refusal(disputed, resolve({ resolution: 'split', seller_percent: 50, expected_address: 'bc1qother' })),
    ).toEqual(changed("seller's payout address", 'bc1qother', 'bc1qpayout'));
    const passes = (extra: Parameters<typeof resolve>[0]) =>
      expect(escrow(disputed).when(resolve(extra)).events()[0]).toMatchObject({ type: 'DisputeResolved' });
    passes({ resolution: 'release', expected_address: 'bc1qpayout', expected_refund_address: 'bc1qother' });
    passes({ resolution: 'refund', expected_address: 'bc1qrefund' });
    passes({ resolution: 'split', seller_percent: 50, expected_address: 'bc1qpayout' });
    passes({ resolution: null, expected_address: 'bc1qother', expected_refund_address: 'bc1qother' });
  });

  it('asks for an outcome unless the settlement is executed as agreed', () => {
    expect(refusal(disputed, resolve({ resolution: 'release', outcome: ' ' }))).toEqual(invalid('outcome is required'));
    const settled = [...disputed, split70, accepted('seller')];
    expect(refusal(settled, resolve({ resolution: 'release', outcome: '' }))).toEqual(invalid('outcome is required'));
  });

  it('names the missing address of the side the resolution pays', () => {
    expect(refusal(without(disputed, sellerPayout), resolve({ resolution: 'release', seller_percent: 50 }))).toEqual(
      notAllowed('The seller has not set a payout address yet'),
    );
    expect(refusal(without(disputed, buyerRefund), resolve({ resolution: 'refund' }))).toEqual(
      notAllowed('The buyer has not set a refund address yet'),
    );
    expect(refusal([...without(disputed, sellerPayout), replaced('buyer')], resolve({ resolution: 'refund' }))).toEqual(
      notAllowed(
        "The buyer's refund address was replaced recently; money cannot go to it before 3 Jan 2026, 00:00 UTC",
      ),
    );
    expect(refusal(without(disputed, buyerRefund), resolve({ resolution: 'split', seller_percent: 50 }))).toEqual(
      notAllowed('The buyer has not set a refund address yet'),
    );
    const agreedRefund = [
      ...without(disputed, buyerRefund),
      made('refund', 'seller', { seller_sats: 0, buyer_sats: 2_030_000 }),
      accepted('buyer'),
    ];
    expect(refusal(agreedRefund, resolve({ resolution: 'refund', seller_percent: 50, outcome: '' }))).toEqual(
      notAllowed('The buyer has not set a refund address yet'),
    );
    const settledNoRefund = [...without(disputed, buyerRefund), split70, accepted('seller')];
    expect(refusal(settledNoRefund, resolve({ resolution: 'split', seller_percent: 70, outcome: '' }))).toEqual(
      notAllowed('The buyer has not set a refund address yet'),
    );
  });

  it('names the settlement the parties agreed to', () => {
    const settled = [...disputed, split70, accepted('seller')];
    expect(refusal(settled, resolve({ resolution: 'split', seller_percent: 60 }))).toEqual(
      notAllowed('The parties agreed to a split of 70% to the seller'),
    );
    expect(refusal(settled, resolve({ resolution: 'refund' }))).toEqual(
      notAllowed('The parties agreed to a split; resolve it as they agreed'),
    );
  });

  it('moves no money on a dispute opened before the payment was verified', () => {
    expect(refusal(histories.disputedFromPending, resolve({ resolution: 'release' }))).toEqual(
      notAllowed('No payment was verified before this dispute, so no money can be released or refunded'),
    );
  });

  it('names the status of a settlement agreed before the payment was verified', () => {
    const settledUnverified = [...histories.pendingMarked, split70, accepted('seller')];
    expect(refusal(settledUnverified, resolve({ outcome: '' }))).toEqual(
      notAllowed('Cannot resolve a dispute on an escrow that is pending_payment'),
    );
  });
});

describe('proposals: the refusal for each kind that does not fit', () => {
  const propose = (kind: string, extra: Partial<Extract<EscrowCommand, { type: 'propose' }>> = {}) =>
    ({ type: 'propose', by: 'buyer', kind, ...extra }) as const;
  const unpaid = histories.pendingFresh as EscrowEvent[];

  it('lists the kinds there are, and asks for the days of an extension', () => {
    expect(refusal(unpaid, propose('bogus'))).toEqual(
      invalid('kind must be one of cancel, refund, split, extend_deadline, extend_inspection'),
    );
    expect(refusal(unpaid, propose('extend_deadline', { days: null }))).toEqual(
      invalid('days is required for extend_deadline'),
    );
    expect(
      escrow(unpaid)
        .when(propose('extend_deadline', { days: 30 }))
        .events()[0],
    ).toMatchObject({
      data: { kind: 'extend_deadline', days: 30 },
    });
    expect(
      escrow(legacyFunded)
        .when(propose('split', { seller_percent: 99 }))
        .events()[0],
    ).toMatchObject({
      data: { kind: 'split', seller_percent: 99 },
    });
  });

  it('says why a proposal cannot be made now', () => {
    expect(refusal([...legacyFunded, split70], propose('refund'))).toEqual(
      notAllowed('A proposal is already open on this escrow; it must be answered or withdrawn first'),
    );
    expect(refusal([...legacyFunded, split70, accepted('seller')], propose('refund'))).toEqual(
      notAllowed('The parties already agreed to a settlement; the admins execute it'),
    );
    expect(refusal(fundedDeclined, propose('refund'))).toEqual(notAllowed('The terms of this escrow were declined'));
    expect(refusal(legacyFunded, propose('cancel'))).toEqual(
      notAllowed('A cancel can only be proposed before the payment is marked'),
    );
    expect(refusal(unpaid, propose('refund'))).toEqual(
      notAllowed('A refund needs money in escrow: the payment must be marked or verified first'),
    );
    expect(refusal(unpaid, propose('split', { seller_percent: 50 }))).toEqual(
      notAllowed('A split needs money in escrow: the payment must be marked or verified first'),
    );
    expect(refusal(histories.disputedFromPending, propose('split', { seller_percent: 50 }))).toEqual(
      notAllowed('A split needs money in escrow: the payment must be marked or verified first'),
    );
    expect(refusal(legacyFunded, propose('extend_deadline', { days: 3 }))).toEqual(
      notAllowed('The payment deadline can only be extended while the escrow waits for payment'),
    );
    expect(refusal(unpaid, propose('extend_inspection', { days: 3 }))).toEqual(
      notAllowed('The inspection period can only be extended while it runs'),
    );
    expect(refusal(histories.frozen, propose('cancel'))).toEqual(
      notAllowed('Cannot propose a settlement on an escrow that is frozen'),
    );
  });

  it('lets only the other side decline a proposal', () => {
    expect(
      refusal([...legacyFunded, split70], { type: 'declineProposal', by: 'buyer', proposal_id: PID, reason: null }),
    ).toEqual(forbidden('Only the other side can decline this proposal; you may withdraw it'));
  });
});

describe('binding a party', () => {
  it('finds no escrow before it is created, and keeps a bound side to its account', () => {
    const bind = { type: 'bindParty', by: 'system', side: 'seller', user_id: CREATOR_ID } as const;
    expect(refusal([], bind)).toEqual({ code: 'not_found', detail: 'Escrow not found', reason: undefined });
    expect(refusal([...histories.pendingFresh, sample.PartyBound], bind)).toEqual(
      forbidden('The seller of this escrow is another account'),
    );
  });
});

describe('cancel, agreement, shipment, receipt, expiry: the refusal named', () => {
  it('names the status when the creator cancels a funded escrow', () => {
    expect(refusal(legacyFunded, { type: 'cancel', by: 'buyer' })).toEqual(
      notAllowed('Cannot cancel an escrow that is funded'),
    );
  });

  it('tells a counterparty what they already answered', () => {
    expect(refusal(fundedDeclined, { type: 'agree', by: 'seller' })).toEqual(
      notAllowed('You declined the terms of this escrow'),
    );
    expect(refusal(fundedDeclined, { type: 'decline', by: 'seller', reason: 'again' })).toEqual(
      notAllowed('You already declined the terms of this escrow'),
    );
    expect(refusal([created('buyer'), agreedBy('seller')], { type: 'decline', by: 'seller', reason: 'no' })).toEqual(
      notAllowed('You already agreed to the terms of this escrow'),
    );
  });

  it('names the status to a party of an escrow made before agreement existed', () => {
    expect(refusal(histories.pendingFresh, { type: 'agree', by: 'seller' })).toEqual(
      notAllowed('Cannot agree to the terms of an escrow that is pending_payment'),
    );
    expect(refusal(histories.pendingFresh, { type: 'decline', by: 'seller', reason: 'no' })).toEqual(
      notAllowed('Cannot decline an escrow that is pending_payment'),
    );
  });

  it('names the status when a shipment cannot be recorded', () => {
    const ship = { type: 'ship', by: 'seller', method: 'digital' } as const;
    expect(refusal(histories.pendingFresh, ship)).toEqual(
      notAllowed('Cannot record a shipment on an escrow that is pending_payment'),
    );
    expect(refusal([...legacyFunded, shipped, dispute], ship)).toEqual(
      notAllowed('Cannot record a shipment on an escrow that is disputed'),
    );
    expect(refusal([...legacyFunded, confirmed], ship)).toEqual(
      notAllowed('Cannot record a shipment on an escrow that is funded'),
    );
  });

  it('takes a carrier of up to 60 characters and a note of up to 1000', () => {
    const ship = {
      type: 'ship',
      by: 'seller',
      method: 'shipping',
      carrier: 'c'.repeat(60),
      note: 'n'.repeat(1000),
    } as const;
    expect(escrow(legacyFunded).when(ship).events()[0]).toMatchObject({
      data: { carrier: 'c'.repeat(60), note: 'n'.repeat(1000) },
    });
    expect(refusal(legacyFunded, { ...ship, carrier: 'c'.repeat(61) } as EscrowCommand)).toEqual(
      invalid('carrier must be at most 60 characters'),
    );
    expect(refusal(legacyFunded, { ...ship, note: 'n'.repeat(1001) } as EscrowCommand)).toEqual(
      invalid('note must be at most 1000 characters'),
    );
  });

  it("ends the inspection after the escrow's own days, three for an escrow made before inspection existed", () => {
    const receive = { type: 'receive', by: 'buyer' } as const;
    escrow([...legacyFunded, shipped])
      .when(receive)
      .then([{ type: 'GoodsReceived', data: { inspection_ends_at: '2026-01-04T00:00:00.000Z' } }]);
    const fiveDays = [created('buyer', 5), agreedBy('seller'), address, marked, verified, shipped];
    escrow(fiveDays)
      .when(receive)
      .then([{ type: 'GoodsReceived', data: { inspection_ends_at: '2026-01-06T00:00:00.000Z' } }]);
  });

  it('says why goods cannot be marked received', () => {
    const receive = { type: 'receive', by: 'buyer' } as const;
    expect(refusal(histories.pendingFresh, receive)).toEqual(
      notAllowed('Cannot mark as received an escrow that is pending_payment'),
    );
    expect(refusal([...legacyFunded, shipped, confirmed], receive)).toEqual(
      notAllowed('Cannot mark as received an escrow that is funded'),
    );
    expect(refusal([...legacyFunded, shipped, sample.GoodsReceived], receive)).toEqual(
      notAllowed('The goods are already marked as received'),
    );
  });

  it('names the status where the inspection end or the expiry does not apply', () => {
    expect(refusal(histories.pendingFresh, { type: 'acceptAfterInspection', by: 'system' })).toEqual(
      notAllowed('Cannot accept at the end of its inspection period an escrow that is pending_payment'),
    );
    expect(refusal(legacyFunded, { type: 'expire', by: 'system' })).toEqual(
      notAllowed('Cannot expire an escrow that is funded'),
    );
  });
});

describe('refuseUnlessAllowed', () => {
  it('refuses as the decider would, at the time given, and lets an allowed command through', () => {
    const expire = { type: 'expire', by: 'system' } as const;
    const state = foldEscrow(histories.pendingFresh);
    expect(() => refuseUnlessAllowed(expire, state, NOW)).toThrow('The payment deadline has not passed');
    expect(refuseUnlessAllowed(expire, state, '2026-01-09T00:00:00.000Z')).toBeUndefined();
    expect(refuseUnlessAllowed({ type: 'postMessage', by: 'buyer', text: 'hi' }, state, NOW)).toBeUndefined();
  });
});
