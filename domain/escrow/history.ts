import { displayUtc } from '../shared/display-time.ts';
import type { EscrowEvent } from './events.ts';
import { proposalTerms } from './proposal-words.ts';

/** One entry of the parties' timeline (the API answers it as contract/escrows.ts's escrowHistoryEntrySchema). */
export interface EscrowHistoryEntry {
  version: number;
  occurred_at: string;
  type: string;
  summary: string;
  actor_side: 'buyer' | 'seller' | 'admin' | 'system';
  reason: string | null;
  outcome: string | null;
  address: string | null;
  txid: string | null;
  seller_percent: number | null;
  seller_sats: number | null;
  buyer_sats: number | null;
  evidence_files: number | null;
}

type Side = EscrowHistoryEntry['actor_side'];
type Dated = EscrowEvent & { occurred_at: string; stream_version: number };
type Made = Extract<EscrowEvent, { type: 'ProposalMade' }>['data'];
/** The proposals made so far, by id: an answer to one names what it answered. */
type Proposals = ReadonlyMap<string, Made>;
const termsOf = (proposals: Proposals, id: string) => {
  const made = proposals.get(id);
  return made ? proposalTerms(made) : 'the proposal';
};

const resolutionWords = {
  release: 'released to the seller',
  refund: 'refunded to the buyer',
  split: 'split between the parties',
} as const;

type Entry = Omit<EscrowHistoryEntry, 'version' | 'occurred_at' | 'type'>;
type Details = Omit<Entry, 'summary' | 'actor_side'>;
const noDetails: Details = {
  reason: null,
  outcome: null,
  address: null,
  txid: null,
  seller_percent: null,
  seller_sats: null,
  buyer_sats: null,
  evidence_files: null,
};
/** An entry: what happened in words, on whose side, and the details it shows (the others null). */
const entry = (summary: string, actor_side: Side, shown: Partial<Details> = {}): Entry => ({
  ...noDetails,
  summary,
  actor_side,
  ...shown,
});

/**
 * One stored event as the escrow's parties may read it: what happened in words, on whose side, and only what
 * both parties are entitled to see. Admin notes, freeze reasons, the buyer's private payment notes and account ids
 * never appear. The actor's side is read from the event itself, not from who the acting account is today.
 */
function entryFor(event: Dated, creatorSide: 'buyer' | 'seller', proposals: Proposals): Entry | null {
  switch (event.type) {
    case 'EscrowCreated':
      return entry(`Escrow opened by the ${event.data.creator_side}`, event.data.creator_side);
    case 'PaymentAddressAssigned':
      return entry(
        event.data.assigned_via === 'admin'
          ? 'Payment address assigned by an admin'
          : 'Payment address given to the buyer',
        event.data.assigned_via,
        { address: event.data.address },
      );
    case 'PaymentMarked':
      return entry('Payment marked as sent', 'buyer', { evidence_files: event.data.evidence.length });
    case 'PaymentRejected':
      return entry('Payment not confirmed on the chain; the buyer may mark it again', 'admin');
    case 'PaymentVerified':
      return entry('Payment verified: the money is held in escrow', 'admin', { txid: event.data.txid });
    case 'ReceiptConfirmed':
      return event.data.automatic
        ? entry('Accepted: the inspection period ended with no dispute', 'system')
        : entry('Receipt confirmed by the buyer', 'buyer');
    case 'TermsAgreed':
      return entry(`Terms agreed by the ${event.data.side}`, event.data.side);
    case 'TermsDeclined':
      return entry(`Terms declined by the ${event.data.side}`, event.data.side, { reason: event.data.reason });
    case 'ShipmentRecorded': {
      const { method, carrier, tracking } = event.data;
      const how = method === 'shipping' ? `Shipped with ${carrier}${tracking ? ` (tracking ${tracking})` : ''}` : null;
      const what = how ?? (method === 'digital' ? 'Delivered digitally' : 'Service delivered');
      return entry(`${what}, says the seller`, 'seller');
    }
    case 'GoodsReceived':
      return entry(
        `Marked received by the buyer; the inspection period ends ${displayUtc(event.data.inspection_ends_at)}`,
        'buyer',
      );
    case 'PayoutAddressSet': {
      const which = event.data.side === 'seller' ? 'Payout address' : 'Refund address';
      const verb = event.data.replaces ? `replaced (was ${event.data.replaces})` : 'set';
      const held = event.data.held_until ? `; no money goes to it before ${displayUtc(event.data.held_until)}` : '';
      return entry(`${which} ${verb} by the ${event.data.side}${held}`, event.data.side, {
        address: event.data.address,
      });
    }
    case 'PartyBound':
      // Which account holds a side is bookkeeping, not a step of the deal (and account ids never appear).
      return null;
    case 'EscrowReleased':
      return entry('Released to the seller', 'admin', {
        txid: event.data.txid,
        seller_sats: event.data.seller_sats,
      });
    case 'EscrowRefunded':
      return entry(
        event.data.proposal_id ? 'Refunded to the buyer, as both parties agreed' : 'Refunded to the buyer',
        'admin',
        { txid: event.data.txid, buyer_sats: event.data.buyer_sats },
      );
    case 'DisputeOpened':
      return entry(`Dispute opened by the ${event.data.opened_by_side}`, event.data.opened_by_side, {
        reason: event.data.reason,
      });
    case 'DisputeResolved': {
      const { resolution } = event.data;
      const what = event.data.dispute_id === null ? 'Settled as both parties agreed' : 'Dispute resolved';
      return entry(resolution ? `${what}: ${resolutionWords[resolution]}` : `${what} without moving money`, 'admin', {
        outcome: event.data.outcome,
        txid: event.data.txid,
        seller_percent: event.data.seller_percent,
        seller_sats: resolution ? event.data.seller_sats : null,
        buyer_sats: resolution ? event.data.buyer_sats : null,
      });
    }
    case 'ProposalMade':
      return entry(`The ${event.data.side} proposed ${proposalTerms(event.data)}`, event.data.side, {
        reason: event.data.note,
        seller_percent: event.data.seller_percent,
        seller_sats: event.data.seller_sats,
        buyer_sats: event.data.buyer_sats,
      });
    case 'ProposalAccepted': {
      const moved = event.data.payment_due_at ?? event.data.inspection_ends_at;
      return entry(
        `The ${event.data.side} accepted ${termsOf(proposals, event.data.proposal_id)}${moved ? `; it now ends ${displayUtc(moved)}` : ''}`,
        event.data.side,
      );
    }
    case 'ProposalDeclined':
      return entry(`The ${event.data.side} declined ${termsOf(proposals, event.data.proposal_id)}`, event.data.side, {
        reason: event.data.reason,
      });
    case 'ProposalWithdrawn':
      return entry(`The ${event.data.side} withdrew ${termsOf(proposals, event.data.proposal_id)}`, event.data.side);
    case 'EscrowCancelled':
      if (event.data.proposal_id) return entry('Cancelled as both parties agreed', 'system');
      return event.data.by === 'admin'
        ? entry('Cancelled by an admin before any payment', 'admin', { reason: event.data.reason })
        : entry(`Cancelled by the ${creatorSide}`, creatorSide);
    case 'EscrowExpired':
      return entry('Cancelled: no payment was marked before the deadline', 'system');
    case 'EscrowFrozen':
      return entry('Frozen by an admin', 'admin');
    case 'EscrowUnfrozen':
      return entry('Unfrozen by an admin', 'admin');
    case 'MessagePosted':
      // The words are in the conversation beside the timeline; here only that one was written, and by whom.
      return entry(
        event.data.file ? `Message with a file from the ${event.data.side}` : `Message from the ${event.data.side}`,
        event.data.side,
        { evidence_files: event.data.file ? 1 : null },
      );
    default: {
      const unknown: never = event;
      throw new Error(`Unknown escrow event ${(unknown as { type: string }).type}`);
    }
  }
}

/** The escrow's events, oldest first, as its parties' timeline. Pure. */
export function partyHistory(events: readonly Dated[]): EscrowHistoryEntry[] {
  const created = events.find((e) => e.type === 'EscrowCreated');
  const creatorSide: Side & ('buyer' | 'seller') =
    created?.type === 'EscrowCreated' ? created.data.creator_side : 'buyer';
  const proposals = new Map<string, Made>();
  return events.flatMap((event) => {
    if (event.type === 'ProposalMade') proposals.set(event.data.proposal_id, event.data);
    const told = entryFor(event, creatorSide, proposals);
    return told ? [{ version: event.stream_version, occurred_at: event.occurred_at, type: event.type, ...told }] : [];
  });
}
