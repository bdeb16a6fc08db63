import type { DomainEvent } from '../../domain/events.ts';
import { formatCents, formatSats } from '../../domain/money.ts';
import { proposalTerms } from '../../domain/escrow/proposal-words.ts';

const short = (id: string) => id.slice(0, 8);
const escrow = (id: string) => `escrow ${short(id)}`;
/**
 * A user in a sentence: the full id, which whoever shows the sentence replaces with the username
 * (app-server/audit/usernames.ts); a sentence holds no other full id.
 */
const user = (id: string) => id;
const toAddresses = (destinations: readonly { address: string }[] | undefined) =>
  destinations?.length ? ` at ${destinations.map((d) => d.address).join(', ')}` : '';

type EventType = DomainEvent['type'];
/** An event's sentence, from its data and the id of its stream's object (escrow, user, address, review). */
export type Sentence<T extends EventType> = (
  data: Extract<DomainEvent, { type: T }>['data'],
  objectId: string,
) => string;

/**
 * Every event type in words, as the audit log and the console's escrow history show it: one entry per type (the
 * type checker asks for one when a type is added), each a lower-case phrase whose subject is the actor.
 */
export const eventSentences: { [T in EventType]: Sentence<T> } = {
  EscrowCreated: (d, id) =>
    `created ${escrow(id)} for ${formatCents(d.total_cents)} USD (${formatSats(d.amount_sats)} BTC)`,
  PaymentAddressAssigned: (d, id) => `assigned address ${d.address} to ${escrow(id)}`,
  PaymentMarked: (d, id) => `marked ${escrow(id)} as paid (${d.evidence.length} file(s))`,
  PaymentRejected: (_, id) => `rejected the payment of ${escrow(id)}`,
  PaymentVerified: (d, id) => `verified the payment of ${escrow(id)}${d.txid ? ` (tx ${short(d.txid)})` : ''}`,
  ReceiptConfirmed: (_, id) => `confirmed receipt on ${escrow(id)}`,
  TermsAgreed: (d, id) => `agreed to the terms of ${escrow(id)} as the ${d.side}`,
  TermsDeclined: (d, id) => `declined the terms of ${escrow(id)} as the ${d.side}`,
  ShipmentRecorded: (d, id) => `recorded a shipment (${d.method}${d.carrier ? `, ${d.carrier}` : ''}) on ${escrow(id)}`,
  GoodsReceived: (d, id) => `marked ${escrow(id)} received (inspection until ${d.inspection_ends_at})`,
  MessagePosted: (d, id) => `wrote a message on ${escrow(id)} as the ${d.side}${d.file ? ' (with a file)' : ''}`,
  PayoutAddressSet: (d, id) =>
    `${d.replaces ? 'replaced' : 'set'} the ${d.side === 'seller' ? 'payout' : 'refund'} address of ${escrow(id)}` +
    (d.held_until ? ` (held until ${d.held_until})` : ''),
  EscrowReleased: (d, id) =>
    `released ${escrow(id)} (${formatSats(d.seller_sats)} BTC to the seller${toAddresses(d.destinations)})`,
  EscrowRefunded: (d, id) =>
    `refunded ${escrow(id)} (${formatSats(d.buyer_sats)} BTC to the buyer${toAddresses(d.destinations)})`,
  DisputeOpened: (d, id) => `opened a dispute on ${escrow(id)} as the ${d.opened_by_side}`,
  DisputeResolved: (d, id) =>
    (d.dispute_id === null
      ? `executed the settlement of ${escrow(id)} both parties agreed to`
      : `resolved the dispute on ${escrow(id)}`) +
    (d.resolution
      ? ` (${d.resolution}${d.seller_percent ? ` ${d.seller_percent}% to the seller` : ''})`
      : ' without moving money'),
  EscrowCancelled: (d, id) =>
    d.by === 'admin'
      ? `cancelled ${escrow(id)} as an admin`
      : `cancelled ${escrow(id)}${d.proposal_id ? ` as both parties agreed (proposal ${short(d.proposal_id)})` : ''}`,
  ProposalMade: (d, id) =>
    `proposed ${proposalTerms(d)} on ${escrow(id)} as the ${d.side} (proposal ${short(d.proposal_id)})`,
  ProposalAccepted: (d, id) => `accepted proposal ${short(d.proposal_id)} on ${escrow(id)} as the ${d.side}`,
  ProposalDeclined: (d, id) => `declined proposal ${short(d.proposal_id)} on ${escrow(id)} as the ${d.side}`,
  ProposalWithdrawn: (d, id) => `withdrew proposal ${short(d.proposal_id)} on ${escrow(id)} as the ${d.side}`,
  EscrowExpired: (_, id) => `expired ${escrow(id)} (payment deadline passed)`,
  EscrowFrozen: (d, id) => `froze ${escrow(id)}: ${d.reason}`,
  EscrowUnfrozen: (_, id) => `unfroze ${escrow(id)}`,
  PartyBound: (d, id) => `made ${user(d.user_id)} the ${d.side} of ${escrow(id)}`,
  AddressAdded: (d) => `added address ${d.address} to the pool`,
  AddressChanged: (d) => `changed pool address to ${d.address}`,
  AddressRemoved: (_, id) => `removed address ${short(id)} from the pool`,
  AddressAssigned: (d, id) => `address ${short(id)} taken by escrow ${short(d.escrow_id)}`,
  AddressFreed: (_, id) => `address ${short(id)} back in the pool`,
  AddressUsed: (d, id) => `address ${short(id)} used by escrow ${short(d.escrow_id)}`,
  UserRegistered: (d) => `registered ${d.username} as ${d.role}`,
  EmailVerified: (_, id) => `verified the e-mail of ${user(id)}`,
  RoleSwitched: (d, id) => `switched the role of ${user(id)} from ${d.from} to ${d.to}`,
  TwoFactorEnabled: (_, id) => `enabled 2FA for ${user(id)}`,
  TwoFactorDisabled: (_, id) => `disabled 2FA for ${user(id)}`,
  RecoveryCodesRegenerated: (d, id) =>
    `made ${d.count} new recovery codes for ${user(id)} (the old ones no longer work)`,
  UserSuspended: (d, id) => `suspended ${user(id)}: ${d.reason}`,
  UserUnsuspended: (_, id) => `unsuspended ${user(id)}`,
  // Sorted: jsonb reorders keys.
  UserUpdated: (d, id) => `updated ${Object.keys(d).sort().join(', ') || 'nothing'} of ${user(id)}`,
  UserDeleted: (_, id) => `deleted ${user(id)}`,
  PasswordReset: (_, id) => `reset the password of ${user(id)}`,
  PasswordChanged: (_, id) => `changed the password of ${user(id)}`,
  UserSignedIn: (_, id) => `${user(id)} signed in`,
  TwoFactorLocked: (d, id) =>
    `locked 2FA-gated actions of ${user(id)} after ${d.failures} wrong codes in ${d.window_minutes} minutes`,
  ReviewSubmitted: (d, id) => `submitted review ${short(id)} (${d.rating.toFixed(1)} stars)`,
  ReviewApproved: (_, id) => `approved review ${short(id)}`,
  ReviewEdited: (_, id) => `edited and approved review ${short(id)}`,
  ReviewRejected: (d, id) => `rejected review ${short(id)}: ${d.reason}`,
  ReviewReopened: (_, id) => `reopened review ${short(id)}`,
  ReviewDeleted: (_, id) => `deleted review ${short(id)}`,
  BtcRateSet: (d) => `set the BTC/USD rate to ${formatCents(d.rate_cents)}`,
  FeeSet: (d) => `set the fee to ${(d.fee_bps / 100).toFixed(2)}%`,
  LogKeyIntroduced: (d) => `introduced the transparency log key ${d.vkey}`,
  LogKeyRotated: (d) => `rotated the transparency log key to ${d.vkey}`,
};

/** One line a person reads in the audit log, built from the event's own data. */
export function summarise(event: Pick<DomainEvent, 'type' | 'data'>, objectId: string): string {
  const sentence = eventSentences[event.type] as (data: unknown, objectId: string) => string;
  return sentence(event.data, objectId);
}
