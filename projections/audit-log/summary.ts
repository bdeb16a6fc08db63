import type { DomainEvent } from '../../domain/events.ts';
import { formatCents, formatSats } from '../../domain/money.ts';

const short = (id: string) => id.slice(0, 8);
const toAddresses = (destinations: readonly { address: string }[] | undefined) =>
  destinations?.length ? ` at ${destinations.map((d) => d.address).join(', ')}` : '';

/** One line a person reads in the audit log, built from the event's own data. */
export function summarise(event: DomainEvent, objectId: string): string {
  const escrow = `escrow ${short(objectId)}`;
  switch (event.type) {
    case 'EscrowCreated':
      return `created ${escrow} for ${formatCents(event.data.total_cents)} USD (${formatSats(event.data.amount_sats)} BTC)`;
    case 'PaymentAddressAssigned':
      return `assigned address ${event.data.address} to ${escrow}`;
    case 'PaymentMarked':
      return `marked ${escrow} as paid (${event.data.evidence.length} file(s))`;
    case 'PaymentRejected':
      return `rejected the payment of ${escrow}`;
    case 'PaymentVerified':
      return `verified the payment of ${escrow}${event.data.txid ? ` (tx ${short(event.data.txid)})` : ''}`;
    case 'ReceiptConfirmed':
      return event.data.automatic ? `accepted ${escrow} at the end of its inspection period` : `confirmed receipt on ${escrow}`;
    case 'TermsAgreed':
      return `agreed to the terms of ${escrow} as the ${event.data.side}`;
    case 'TermsDeclined':
      return `declined the terms of ${escrow} as the ${event.data.side}`;
    case 'ShipmentRecorded':
      return `recorded a shipment (${event.data.method}${event.data.carrier ? `, ${event.data.carrier}` : ''}) on ${escrow}`;
    case 'GoodsReceived':
      return `marked ${escrow} received (inspection until ${event.data.inspection_ends_at})`;
    case 'PayoutAddressSet':
      return `${event.data.replaces ? 'replaced' : 'set'} the ${event.data.side === 'seller' ? 'payout' : 'refund'} address of ${escrow}${event.data.held_until ? ` (held until ${event.data.held_until})` : ''}`;
    case 'EscrowReleased':
      return `released ${escrow} (${formatSats(event.data.seller_sats)} BTC to the seller${toAddresses(event.data.destinations)})`;
    case 'EscrowRefunded':
      return `refunded ${escrow} (${formatSats(event.data.buyer_sats)} BTC to the buyer${toAddresses(event.data.destinations)})`;
    case 'DisputeOpened':
      return `opened a dispute on ${escrow} as the ${event.data.opened_by_side}`;
    case 'DisputeResolved':
      return `resolved the dispute on ${escrow}${event.data.resolution ? ` (${event.data.resolution}${event.data.seller_percent ? ` ${event.data.seller_percent}% to the seller` : ''})` : ' without moving money'}`;
    case 'EscrowCancelled':
      return event.data.by === 'admin' ? `cancelled ${escrow} as an admin` : `cancelled ${escrow}`;
    case 'EscrowExpired':
      return `expired ${escrow} (payment deadline passed)`;
    case 'EscrowFrozen':
      return `froze ${escrow}: ${event.data.reason}`;
    case 'EscrowUnfrozen':
      return `unfroze ${escrow}`;
    case 'MessagePosted':
      return `wrote a message on ${escrow} as the ${event.data.side}${event.data.file ? ' (with a file)' : ''}`;
    case 'PartyBound':
      return `bound the ${event.data.side} of ${escrow} to user ${short(event.data.user_id)}`;
    case 'AddressAdded':
      return `added address ${event.data.address} to the pool`;
    case 'AddressChanged':
      return `changed pool address to ${event.data.address}`;
    case 'AddressRemoved':
      return `removed address ${short(objectId)} from the pool`;
    case 'AddressAssigned':
      return `address ${short(objectId)} taken by escrow ${short(event.data.escrow_id)}`;
    case 'AddressFreed':
      return `address ${short(objectId)} back in the pool`;
    case 'AddressUsed':
      return `address ${short(objectId)} used by escrow ${short(event.data.escrow_id)}`;
    case 'UserRegistered':
      return `registered ${event.data.username} as ${event.data.role}`;
    case 'EmailVerified':
      return `verified the e-mail of user ${short(objectId)}`;
    case 'RoleSwitched':
      return `switched role of user ${short(objectId)} from ${event.data.from} to ${event.data.to}`;
    case 'TwoFactorEnabled':
      return `enabled 2FA for user ${short(objectId)}`;
    case 'TwoFactorDisabled':
      return `disabled 2FA for user ${short(objectId)}`;
    case 'UserSuspended':
      return `suspended user ${short(objectId)}: ${event.data.reason}`;
    case 'UserUnsuspended':
      return `unsuspended user ${short(objectId)}`;
    case 'UserUpdated':
      return `updated ${Object.keys(event.data).sort().join(', ') || 'nothing'} of user ${short(objectId)}`; // sorted: jsonb reorders keys
    case 'UserDeleted':
      return `deleted user ${short(objectId)}`;
    case 'PasswordReset':
      return `reset the password of user ${short(objectId)}`;
    case 'PasswordChanged':
      return `changed the password of user ${short(objectId)}`;
    case 'UserSignedIn':
      return `user ${short(objectId)} signed in`;
    case 'TwoFactorLocked':
      return `locked 2FA-gated actions of user ${short(objectId)} after ${event.data.failures} wrong codes in ${event.data.window_minutes} minutes`;
    case 'ReviewSubmitted':
      return `submitted review ${short(objectId)} (${event.data.rating.toFixed(1)} stars)`;
    case 'ReviewApproved':
      return `approved review ${short(objectId)}`;
    case 'ReviewEdited':
      return `edited and approved review ${short(objectId)}`;
    case 'ReviewRejected':
      return `rejected review ${short(objectId)}: ${event.data.reason}`;
    case 'ReviewReopened':
      return `reopened review ${short(objectId)}`;
    case 'ReviewDeleted':
      return `deleted review ${short(objectId)}`;
    case 'BtcRateSet':
      return `set the BTC/USD rate to ${formatCents(event.data.rate_cents)}`;
    case 'FeeSet':
      return `set the fee to ${(event.data.fee_bps / 100).toFixed(2)}%`;
    case 'LogKeyIntroduced':
      return `introduced the transparency log key ${event.data.vkey}`;
    case 'LogKeyRotated':
      return `rotated the transparency log key to ${event.data.vkey}`;
    default: {
      const unknown: never = event;
      return (unknown as DomainEvent).type;
    }
  }
}
