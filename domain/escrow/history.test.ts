import { describe, expect, it } from 'vitest';
import type { EscrowEvent, EvidenceRef } from './events.ts';
import { type EscrowHistoryEntry, partyHistory } from './history.ts';
import { DISPUTE_ID, PROPOSAL_ID, sample, sampleWith, splitResolved70, TXID } from './test-fixtures.ts';

type Dated = EscrowEvent & { occurred_at: string; stream_version: number };

/** The events as stored, one a minute from 2026-01-02 10:00 UTC, versions 1, 2, … */
const dated = (events: readonly EscrowEvent[]): Dated[] =>
  events.map((e, i) => ({
    ...e,
    occurred_at: new Date(Date.parse('2026-01-02T10:00:00.000Z') + i * 60_000).toISOString(),
    stream_version: i + 1,
  }));
/** The timeline of the events, without the version and time of each entry. */
const told = (events: readonly EscrowEvent[]) =>
  partyHistory(dated(events)).map(({ version: _version, occurred_at: _at, ...rest }) => rest);
const last = (events: readonly EscrowEvent[]) => told(events).at(-1);

const nothing = {
  reason: null,
  outcome: null,
  address: null,
  txid: null,
  seller_percent: null,
  seller_sats: null,
  buyer_sats: null,
  evidence_files: null,
};
/** An entry: its words and side, the fields it shows, every other field empty. */
const entry = (
  type: EscrowEvent['type'],
  summary: string,
  actor_side: EscrowHistoryEntry['actor_side'],
  shown: Partial<EscrowHistoryEntry> = {},
) => ({ type, summary, actor_side, ...nothing, ...shown });

const evidence = (n: number): EvidenceRef => ({
  evidence_id: `eeeeeeee-eeee-4eee-8eee-00000000000${n}`,
  filename: `receipt-${n}.png`,
  content_type: 'image/png',
  size_bytes: 1_000,
  sha256: 'b'.repeat(64),
});
const createdBySeller: EscrowEvent = {
  type: 'EscrowCreated',
  data: { ...sample.EscrowCreated.data, creator_side: 'seller' },
};
const OTHER_PROPOSAL = '77777777-7777-4777-8777-777777777777';

describe("the parties' history", () => {
  it('says when the inspection period ends as people read a time, not as a machine stores it', () => {
    const received = {
      type: 'GoodsReceived',
      data: { inspection_ends_at: '2026-11-27T02:28:10.758Z' },
      occurred_at: '2026-11-26T02:28:10.758Z',
      stream_version: 6,
    } as EscrowEvent & {
      occurred_at: string;
      stream_version: number;
    };
    expect(partyHistory([received])[0]).toMatchObject({
      summary: 'Marked received by the buyer; the inspection period ends 27 Nov 2026, 02:28 UTC',
      actor_side: 'buyer',
    });
  });

  it('tells a sale from opening to release, each step on its side, with only what both parties may see', () => {
    const events: EscrowEvent[] = [
      sample.EscrowCreated,
      sample.TermsAgreed,
      sample.PaymentAddressAssigned,
      { type: 'PaymentMarked', data: { notes: 'my bank ref 123', evidence: [evidence(1), evidence(2)] } },
      sample.PaymentRejected,
      sample.PaymentMarked,
      sample.PaymentVerified,
      sample.PayoutAddressSet,
      { type: 'PayoutAddressSet', data: { side: 'buyer', address: 'bc1qrefund' } },
      sample.ShipmentRecorded,
      sample.GoodsReceived,
      sample.MessagePosted,
      { type: 'MessagePosted', data: { ...sample.MessagePosted.data, side: 'buyer', file: evidence(3) } },
      sample.ReceiptConfirmed,
      sample.EscrowReleased,
    ];
    expect(told(events)).toEqual([
      entry('EscrowCreated', 'Escrow opened by the buyer', 'buyer'),
      entry('TermsAgreed', 'Terms agreed by the seller', 'seller'),
      entry('PaymentAddressAssigned', 'Payment address given to the buyer', 'buyer', {
        address: 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4',
      }),
      entry('PaymentMarked', 'Payment marked as sent', 'buyer', { evidence_files: 2 }),
      entry('PaymentRejected', 'Payment not confirmed on the chain; the buyer may mark it again', 'admin'),
      entry('PaymentMarked', 'Payment marked as sent', 'buyer', { evidence_files: 0 }),
      entry('PaymentVerified', 'Payment verified: the money is held in escrow', 'admin', { txid: TXID }),
      entry('PayoutAddressSet', 'Payout address set by the seller', 'seller', { address: 'bc1qpayout' }),
      entry('PayoutAddressSet', 'Refund address set by the buyer', 'buyer', { address: 'bc1qrefund' }),
      entry('ShipmentRecorded', 'Shipped with DHL (tracking JD0123), says the seller', 'seller'),
      entry('GoodsReceived', 'Marked received by the buyer; the inspection period ends 5 Jan 2026, 00:00 UTC', 'buyer'),
      entry('MessagePosted', 'Message from the seller', 'seller'),
      entry('MessagePosted', 'Message with a file from the buyer', 'buyer', { evidence_files: 1 }),
      entry('ReceiptConfirmed', 'Receipt confirmed by the buyer', 'buyer'),
      entry('EscrowReleased', 'Released to the seller', 'admin', { txid: TXID, seller_sats: 2_000_000 }),
    ]);
  });

  it('leaves out who holds a side, keeping each entry its own version and time', () => {
    const entries = partyHistory(dated([sample.EscrowCreated, sample.PartyBound, sample.TermsAgreed]));
    expect(entries.map((e) => [e.version, e.occurred_at, e.type])).toEqual([
      [1, '2026-01-02T10:00:00.000Z', 'EscrowCreated'],
      [3, '2026-01-02T10:02:00.000Z', 'TermsAgreed'],
    ]);
    expect(JSON.stringify(entries)).not.toContain((sample.PartyBound.data as { user_id: string }).user_id);
  });

  it('tells a dispute, a freeze and a resolution, on the side of whoever acted', () => {
    const events: EscrowEvent[] = [
      createdBySeller,
      { type: 'PaymentAddressAssigned', data: { ...sample.PaymentAddressAssigned.data, assigned_via: 'admin' } },
      { type: 'TermsDeclined', data: { side: 'buyer', reason: 'price changed' } },
      sample.DisputeOpened,
      sample.EscrowFrozen,
      sample.EscrowUnfrozen,
      { type: 'MessagePosted', data: { ...sample.MessagePosted.data, side: 'admin' } },
      sample.DisputeResolved,
      {
        type: 'PayoutAddressSet',
        data: { side: 'seller', address: 'bc1qnew', replaces: 'bc1qold', held_until: '2026-01-09T00:00:00.000Z' },
      },
      { type: 'PayoutAddressSet', data: { side: 'buyer', address: 'bc1qrefund', replaces: null, held_until: null } },
      { type: 'DisputeOpened', data: { dispute_id: DISPUTE_ID, reason: 'damaged', opened_by_side: 'seller' } },
      { type: 'DisputeResolved', data: { ...splitResolved70.data, outcome: 'both share the damage' } } as EscrowEvent,
    ];
    expect(told(events)).toEqual([
      entry('EscrowCreated', 'Escrow opened by the seller', 'seller'),
      entry('PaymentAddressAssigned', 'Payment address assigned by an admin', 'admin', {
        address: 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4',
      }),
      entry('TermsDeclined', 'Terms declined by the buyer', 'buyer', { reason: 'price changed' }),
      entry('DisputeOpened', 'Dispute opened by the buyer', 'buyer', { reason: 'not delivered' }),
      entry('EscrowFrozen', 'Frozen by an admin', 'admin'),
      entry('EscrowUnfrozen', 'Unfrozen by an admin', 'admin'),
      entry('MessagePosted', 'Message from the admin', 'admin'),
      // It moved no money: no satoshis shown, whatever figures the event carries.
      entry('DisputeResolved', 'Dispute resolved without moving money', 'admin', { outcome: 'talked it through' }),
      entry(
        'PayoutAddressSet',
        expect.stringMatching(
          /^Payout address replaced \(was bc1qold\) by the seller; no money goes to it before \d{1,2} [A-Z][a-z]{2} \d{4}, \d\d:\d\d UTC$/,
        ),
        'seller',
        { address: 'bc1qnew' },
      ),
      entry('PayoutAddressSet', 'Refund address set by the buyer', 'buyer', { address: 'bc1qrefund' }),
      entry('DisputeOpened', 'Dispute opened by the seller', 'seller', { reason: 'damaged' }),
      entry('DisputeResolved', 'Dispute resolved: split between the parties', 'admin', {
        outcome: 'both share the damage',
        txid: TXID,
        seller_percent: 70,
        seller_sats: 1_400_000,
        buyer_sats: 600_000,
      }),
    ]);
  });

  it('names how a dispute moved the money, and a settlement both parties agreed to', () => {
    const opened = [sample.EscrowCreated, sample.DisputeOpened];
    const release = sampleWith('DisputeResolved', {
      resolution: 'release',
      seller_sats: 2_000_000,
      fee_sats: 30_000,
      txid: TXID,
    });
    expect(last([...opened, release])).toEqual(
      entry('DisputeResolved', 'Dispute resolved: released to the seller', 'admin', {
        outcome: 'talked it through',
        txid: TXID,
        seller_sats: 2_000_000,
        buyer_sats: 0,
      }),
    );
    const refund = sampleWith('DisputeResolved', { resolution: 'refund', buyer_sats: 2_030_000, txid: TXID });
    expect(last([...opened, refund])?.summary).toBe('Dispute resolved: refunded to the buyer');
    const agreed = sampleWith('DisputeResolved', {
      dispute_id: null,
      resolution: 'refund',
      buyer_sats: 2_030_000,
      proposal_id: PROPOSAL_ID,
    });
    expect(last([sample.EscrowCreated, agreed])?.summary).toBe('Settled as both parties agreed: refunded to the buyer');
    expect(last([sample.EscrowCreated, sampleWith('DisputeResolved', { dispute_id: null })])?.summary).toBe(
      'Settled as both parties agreed without moving money',
    );
  });

  it('says how the seller delivered: shipped with or without tracking, digitally, or as a service', () => {
    const delivered = (shipment: EscrowEvent) => last([sample.EscrowCreated, shipment]);
    expect(delivered(sampleWith('ShipmentRecorded', { tracking: null }))).toEqual(
      entry('ShipmentRecorded', 'Shipped with DHL, says the seller', 'seller'),
    );
    expect(
      delivered(sampleWith('ShipmentRecorded', { method: 'digital', carrier: null, tracking: null }))?.summary,
    ).toBe('Delivered digitally, says the seller');
    expect(
      delivered(sampleWith('ShipmentRecorded', { method: 'service', carrier: null, tracking: null }))?.summary,
    ).toBe('Service delivered, says the seller');
  });

  it('says who ended the escrow and why it ended', () => {
    const ended = (end: EscrowEvent, created: EscrowEvent = sample.EscrowCreated) => last([created, end]);
    expect(ended(sample.EscrowCancelled)).toEqual(entry('EscrowCancelled', 'Cancelled by the buyer', 'buyer'));
    expect(ended(sample.EscrowCancelled, createdBySeller)).toEqual(
      entry('EscrowCancelled', 'Cancelled by the seller', 'seller'),
    );
    expect(ended({ type: 'EscrowCancelled', data: { reason: 'abuse', by: 'admin' } })).toEqual(
      entry('EscrowCancelled', 'Cancelled by an admin before any payment', 'admin', { reason: 'abuse' }),
    );
    expect(ended({ type: 'EscrowCancelled', data: { reason: '', proposal_id: PROPOSAL_ID } })).toEqual(
      entry('EscrowCancelled', 'Cancelled as both parties agreed', 'system'),
    );
    expect(ended(sample.EscrowExpired)).toEqual(
      entry('EscrowExpired', 'Cancelled: no payment was marked before the deadline', 'system'),
    );
    expect(ended({ type: 'ReceiptConfirmed', data: { automatic: true } })).toEqual(
      entry('ReceiptConfirmed', 'Accepted: the inspection period ended with no dispute', 'system'),
    );
    expect(ended(sample.EscrowRefunded)).toEqual(
      entry('EscrowRefunded', 'Refunded to the buyer', 'admin', { txid: TXID, buyer_sats: 2_030_000 }),
    );
    expect(
      ended({ type: 'EscrowRefunded', data: { ...sample.EscrowRefunded.data, proposal_id: PROPOSAL_ID } }),
    ).toEqual(
      entry('EscrowRefunded', 'Refunded to the buyer, as both parties agreed', 'admin', {
        txid: TXID,
        buyer_sats: 2_030_000,
      }),
    );
  });

  it('names in each answer to a proposal the terms it answered, and "the proposal" for one it never saw', () => {
    const events: EscrowEvent[] = [
      sample.EscrowCreated,
      sample.ProposalMade,
      sample.ProposalWithdrawn,
      sampleWith('ProposalMade', {
        proposal_id: OTHER_PROPOSAL,
        kind: 'refund',
        side: 'seller',
        note: null,
        seller_percent: null,
        seller_sats: 0,
        buyer_sats: 2_000_000,
      }),
      { type: 'ProposalAccepted', data: { proposal_id: OTHER_PROPOSAL, side: 'buyer' } },
      {
        type: 'ProposalDeclined',
        data: { proposal_id: '88888888-8888-4888-8888-888888888888', side: 'buyer', reason: null },
      },
    ];
    expect(told(events).slice(1)).toEqual([
      entry('ProposalMade', 'The buyer proposed a split, 70% to the seller and 30% to the buyer', 'buyer', {
        reason: 'Half of it arrived scratched',
        seller_percent: 70,
        seller_sats: 1_400_000,
        buyer_sats: 600_000,
      }),
      entry('ProposalWithdrawn', 'The buyer withdrew a split, 70% to the seller and 30% to the buyer', 'buyer'),
      entry('ProposalMade', 'The seller proposed a full refund to the buyer', 'seller', {
        seller_sats: 0,
        buyer_sats: 2_000_000,
      }),
      entry('ProposalAccepted', 'The buyer accepted a full refund to the buyer', 'buyer'),
      entry('ProposalDeclined', 'The buyer declined the proposal', 'buyer'),
    ]);
  });

  it('says when an accepted extension now ends', () => {
    const deadline = sampleWith('ProposalMade', {
      kind: 'extend_deadline',
      seller_percent: null,
      days: 3,
      seller_sats: null,
      buyer_sats: null,
    });
    const inspection = sampleWith('ProposalMade', {
      kind: 'extend_inspection',
      seller_percent: null,
      days: 1,
      seller_sats: null,
      buyer_sats: null,
    });
    const accepted = (moved: object): EscrowEvent =>
      ({ type: 'ProposalAccepted', data: { proposal_id: PROPOSAL_ID, side: 'seller', ...moved } }) as EscrowEvent;
    expect(
      last([sample.EscrowCreated, deadline, accepted({ payment_due_at: '2026-01-11T00:00:00.000Z' })])?.summary,
    ).toMatch(
      /^The seller accepted to extend the payment deadline by 3 days; it now ends \d{1,2} [A-Z][a-z]{2} \d{4}, \d\d:\d\d UTC$/,
    );
    expect(
      last([sample.EscrowCreated, inspection, accepted({ inspection_ends_at: '2026-01-06T00:00:00.000Z' })])?.summary,
    ).toMatch(
      /^The seller accepted to extend the inspection period by 1 day; it now ends \d{1,2} [A-Z][a-z]{2} \d{4}, \d\d:\d\d UTC$/,
    );
  });

  it('refuses to tell an event it does not know rather than leave it out', () => {
    const unknown = { type: 'EscrowTeleported', data: {} } as unknown as EscrowEvent;
    expect(() => told([sample.EscrowCreated, unknown])).toThrow('Unknown escrow event EscrowTeleported');
  });
});
