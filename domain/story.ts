import type { EscrowEvent } from './escrow/events.ts';
import { type EscrowState, evolveEscrow, initialEscrowState } from './escrow/state.ts';

/**
 * The story a log tells must be possible, whatever its hashes say: a file whose every hash was recomputed can still
 * claim a transition the escrow machine refuses, money that does not add up, a payout to an address that was never
 * the one in force, or an admin's act by someone never made admin. Fed the events in log order, this answers the
 * first such reason (verify-export and import-events name the line).
 */

/** What the story needs of a stored event. */
export interface StoryEvent {
  position: number;
  stream_id: string;
  type: string;
  data: unknown;
  metadata: { actor: string };
  occurred_at?: string;
}

/** Escrow events only an admin (or, for expiry, the system) records. */
const ADMIN_ACTS = new Set([
  'PaymentVerified',
  'PaymentRejected',
  'EscrowReleased',
  'EscrowRefunded',
  'DisputeResolved',
  'EscrowFrozen',
  'EscrowUnfrozen',
]);

type Payout = {
  seller_sats: number;
  buyer_sats: number;
  fee_sats: number;
  destinations?: { to: 'buyer' | 'seller'; address: string; sats: number }[] | undefined;
};

export class StoryCheck {
  /**
   * `checksEscrow` picks the escrows this check follows (all by default): verify-export shares them between its two
   * threads. Every check still follows every user's story, since any escrow's admin acts are judged against it.
   */
  constructor(private readonly checksEscrow: (escrowId: string) => boolean = () => true) {}

  private readonly escrows = new Map<string, EscrowState>();
  private readonly admins = new Set<string>();
  /**
   * A released, refunded or cancelled escrow refuses every later event but PartyBound, which reads only its
   * parties: its snapshot is never read again. So each is kept with the first final snapshot of its status, shared,
   * not its own (~3 KB each: 68,600 escrows of a million events held 196 MB, import-events' largest cost).
   */
  private readonly finalSnapshots = new Map<string, Pick<EscrowState, 'snapshot' | 'context'>>();

  /** The reason the event cannot follow the story so far, or null (and the story moves on). */
  see(event: StoryEvent): string | null {
    const [kind, id = ''] = splitStream(event.stream_id);
    if (kind === 'user') {
      this.seeUser(id, event);
      return null;
    }
    if (kind !== 'escrow' || !this.checksEscrow(id)) return null;
    const before = this.escrows.get(id) ?? initialEscrowState();
    const bySide = (event.data as { assigned_via?: string; side?: string }) ?? {};
    const asAdmin =
      (event.type === 'PaymentAddressAssigned' && bySide.assigned_via === 'admin') ||
      (event.type === 'MessagePosted' && bySide.side === 'admin');
    if (ADMIN_ACTS.has(event.type) || asAdmin) {
      if (!this.admins.has(event.metadata.actor))
        return `event ${event.position} (${event.type} on escrow ${id}) is an admin's act by ${event.metadata.actor}, who was never made an admin`;
    }
    let after: EscrowState;
    try {
      after = evolveEscrow(before, event as unknown as EscrowEvent & { occurred_at?: string });
    } catch (error) {
      return `event ${event.position} (${event.type} on escrow ${id}) is a transition the escrow machine refuses: ${error instanceof Error ? error.message : String(error)}`;
    }
    const money = this.checkPayout(event, before);
    if (money) return `event ${event.position} (${event.type} on escrow ${id}): ${money}`;
    this.escrows.set(id, this.kept(after));
    return null;
  }

  private kept(state: EscrowState): EscrowState {
    if (state.snapshot.status !== 'done') return state;
    const shared = this.finalSnapshots.get(state.status);
    if (!shared) this.finalSnapshots.set(state.status, { snapshot: state.snapshot, context: state.context });
    return shared ? { ...state, ...shared } : state;
  }

  private seeUser(id: string, event: StoryEvent) {
    const data = event.data as { role?: string; to?: string; user_id?: string };
    const madeAdmin =
      (event.type === 'UserRegistered' && data.role === 'admin') ||
      (event.type === 'RoleSwitched' && data.to === 'admin') ||
      (event.type === 'UserUpdated' && data.role === 'admin');
    if (madeAdmin) this.admins.add(id);
  }

  /** Money out adds up to the amount held, and goes only to the payout or refund address in force. */
  private checkPayout(event: StoryEvent, before: EscrowState): string | null {
    if (event.type !== 'EscrowReleased' && event.type !== 'EscrowRefunded' && event.type !== 'DisputeResolved')
      return null;
    const data = event.data as Partial<Payout> & { resolution?: string | null };
    if (event.type === 'DisputeResolved' && !data.resolution) return null;
    const paid = { seller_sats: data.seller_sats ?? 0, buyer_sats: data.buyer_sats ?? 0, fee_sats: data.fee_sats ?? 0 };
    const { amount_sats, payout_address, refund_address } = before.context;
    const total = paid.seller_sats + paid.buyer_sats + paid.fee_sats;
    if (total !== amount_sats) {
      return `money does not add up: ${paid.seller_sats} to the seller, ${paid.buyer_sats} to the buyer and ${paid.fee_sats} in fees make ${total} satoshis, but the escrow held ${amount_sats}`;
    }
    for (const d of data.destinations ?? []) {
      const inForce = d.to === 'seller' ? payout_address : refund_address;
      if (d.address !== inForce) {
        return `money goes to ${d.address}, which is not the ${d.to === 'seller' ? 'payout' : 'refund'} address in force (${inForce ?? 'none set'})`;
      }
      const due = d.to === 'seller' ? paid.seller_sats : paid.buyer_sats;
      if (d.sats !== due)
        return `${d.sats} satoshis go to the ${d.to}'s address, but the event gives the ${d.to} ${due}`;
    }
    return null;
  }
}

function splitStream(streamId: string): [string, string | undefined] {
  const colon = streamId.indexOf(':');
  return colon < 0 ? [streamId, undefined] : [streamId.slice(0, colon), streamId.slice(colon + 1)];
}
