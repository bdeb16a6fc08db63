import type { Selectable, Transaction } from 'kysely';
import { displayBtc, displayUsd } from '../../domain/money.ts';
import { displayUtc } from '../../domain/shared/display-time.ts';
import type { EscrowEvent } from '../../domain/escrow/events.ts';
import type { StoredEvent } from '../../domain/stored-event.ts';
import type { EscrowRow } from '../../projections/escrows/table.ts';
import type { Database } from '../db/schema.ts';
import { adminConsolePath, adminEmails } from '../mail/admins.ts';
import { takeNotice } from '../mail/notices.ts';
import { currentCheckpointLine } from '../mail/checkpoint-line.ts';
import { enqueueMail, type OutgoingMail } from '../mail/outbox.ts';
import { escrowRef, userWords } from '../mail/user-words.ts';
import { actingOnRow } from './allowed-actions.ts';
import { escrowOfEvent } from './escrow-of-event.ts';
import type { Letter } from './letter.ts';
import { proposalLetters, type ProposalRow } from './proposal-letters.ts';
import { hasEnded } from '../../domain/escrow/final-statuses.ts';

type Escrow = Selectable<EscrowRow>;
type Side = 'buyer' | 'seller';

const btc = (sats: number | null) => displayBtc(sats ?? 0);
const otherSide = (side: Side): Side => (side === 'buyer' ? 'seller' : 'buyer');

/** Every letter an escrow event calls for (none when nobody needs to hear of it). Pure. */
export function lettersFor(event: StoredEvent, escrow: Escrow, proposal?: ProposalRow): Letter[] {
  const letter = letterFor(event, escrow);
  const letters = [...(letter ? [letter] : []), ...proposalLetters(event, escrow, proposal)];
  if (event.type === 'DisputeOpened') letters.push(disputeNoticeToOtherParty(event.data.opened_by_side, escrow));
  return letters;
}

/** The party who did not open the dispute hears of it: their money (or their delivery) is now on hold. */
function disputeNoticeToOtherParty(openedBy: Side, escrow: Escrow): Letter {
  const reader = otherSide(openedBy);
  return {
    to: reader,
    subject: `Dispute opened: ${escrowRef(escrow.id)}`,
    lines: [
      `The ${openedBy} opened a dispute on escrow ${escrowRef(escrow.id).replace(/^escrow /, '')}. Nothing moves until an admin resolves it.`,
      reader === 'seller'
        ? 'An admin will look at both sides and may contact you: keep proof of what you delivered and when, and set your payout address on the escrow page if you have not yet.'
        : 'An admin will look at both sides and may contact you: keep proof of what you received (or did not), and set a refund address on the escrow page if you have not yet.',
    ],
  };
}

/** The escrow events that call for a letter: the store runs the mail effect on appends holding one of them. */
export const MAILED_ESCROW_EVENTS = [
  'PaymentMarked',
  'PaymentRejected',
  'PaymentVerified',
  'DisputeOpened',
  'EscrowReleased',
  'EscrowRefunded',
  'EscrowCancelled',
  'EscrowExpired',
  'DisputeResolved',
  'EscrowFrozen',
  'EscrowUnfrozen',
  'PayoutAddressSet',
  'PaymentAddressAssigned',
  'TermsAgreed',
  'TermsDeclined',
  'ShipmentRecorded',
  'GoodsReceived',
  'ReceiptConfirmed',
  'ProposalMade',
  'ProposalAccepted',
  'ProposalDeclined',
  'ProposalWithdrawn',
] as const satisfies readonly EscrowEvent['type'][];

/** The main letter an escrow event calls for, or null when nobody needs to hear of it. Pure. */
export function letterFor(event: StoredEvent, escrow: Escrow): Letter | null {
  const ref = escrowRef(escrow.id);
  const what = ref.replace(/^escrow /, '');
  switch (event.type) {
    case 'PaymentAddressAssigned':
      // The buyer asked when none was free; an admin has now given one.
      if (event.data.assigned_via !== 'admin') return null;
      return {
        to: 'buyer',
        subject: `Payment address ready: ${ref}`,
        lines: [
          `An admin assigned a payment address to escrow ${what}: ${event.data.address}.`,
          `Pay ${btc(escrow.amount_sats)} to it, then press Mark as Paid on the escrow page.`,
        ],
      };
    case 'TermsAgreed':
      return {
        to: escrow.creator_side,
        subject: `Terms agreed: ${ref}`,
        lines: (side) => [
          `The ${event.data.side} agreed to the terms of escrow ${what}.`,
          side === 'buyer'
            ? 'Next: press Make Payment on the escrow page for the payment address.'
            : 'Next: the buyer pays into escrow; you are told when the payment is verified.',
        ],
      };
    case 'TermsDeclined':
      return {
        to: hasEnded(escrow.status) ? escrow.creator_side : 'everyone',
        subject: `Terms declined: ${ref}`,
        lines: [
          `The ${event.data.side} declined the terms of escrow ${what}.`,
          ...userWords(`The ${event.data.side}'s reason`, event.data.reason),
          hasEnded(escrow.status)
            ? 'Nothing was paid, so the escrow is cancelled.'
            : "The payment was already sent: the admins refund it to the buyer's refund address (the buyer sets it on the escrow page).",
        ],
      };
    case 'ShipmentRecorded': {
      const { method, carrier, tracking, note } = event.data;
      return {
        to: 'buyer',
        subject: `Shipped: ${ref}`,
        lines: [
          method === 'shipping'
            ? `The seller shipped escrow ${what} with ${carrier}${tracking ? `, tracking ${tracking}` : ''}.`
            : `The seller says escrow ${what} is delivered (${method}).`,
          ...(note ? userWords("The seller's note", note) : []),
          'When you have it, press Mark as Received on the escrow page: your inspection period starts then.',
        ],
      };
    }
    case 'GoodsReceived':
      // With no inspection period the receipt is the acceptance: the seller hears of it once, as accepted.
      if (escrow.inspection_days === 0) return null;
      return {
        to: 'seller',
        subject: `Received by the buyer: ${ref}`,
        lines: [
          `The buyer marked escrow ${what} as received.`,
          `The inspection period ends ${displayUtc(event.data.inspection_ends_at)}; without a dispute by then the deal is accepted.`,
          'Set your payout address on the escrow page if you have not yet.',
        ],
      };
    case 'ReceiptConfirmed':
      return {
        to: 'seller',
        subject: `Accepted: ${ref}`,
        lines: [
          event.data.automatic
            ? `The inspection period of escrow ${what} ended with no dispute, so the deal is accepted.`
            : `The buyer accepted escrow ${what}.`,
          escrow.payout_address
            ? 'An admin releases the money to your payout address.'
            : 'Set your payout address on the escrow page: the money is released to it.',
        ],
      };
    case 'PaymentMarked':
      return {
        to: 'admins',
        adminPath: adminConsolePath.verifications,
        subject: `Payment marked: ${ref}`,
        lines: [
          `The buyer marked escrow ${what} as paid (${btc(escrow.amount_sats)} to ${escrow.assigned_address ?? 'no address'}).`,
          `Check the payment on the chain, then verify or reject it under Verifications in the admin console.`,
        ],
      };
    case 'PaymentRejected':
      return {
        to: 'buyer',
        subject: `Payment not confirmed: ${ref}`,
        lines: [
          `The payment you marked on escrow ${what} could not be confirmed on the chain.`,
          `Admin's note: ${event.data.notes || '(none)'}`,
          `Check that ${btc(escrow.amount_sats)} went to ${escrow.assigned_address ?? 'the payment address'}, then mark it as paid again.`,
        ],
      };
    case 'PaymentVerified':
      return {
        to: 'parties',
        subject: `Escrow funded: ${ref}`,
        lines: (side) => [
          `The payment of ${btc(escrow.amount_sats)} for escrow ${what} is confirmed and held in escrow.`,
          side === 'seller'
            ? 'Deliver now, and set your payout address on the escrow page if you have not yet.'
            : 'Confirm receipt on the escrow page once you have what you paid for; set a refund address in case of a dispute.',
        ],
      };
    case 'DisputeOpened':
      return {
        to: 'admins',
        adminPath: adminConsolePath.disputes,
        subject: `Dispute opened: ${ref}`,
        lines: [
          `The ${event.data.opened_by_side} opened a dispute on escrow ${what}.`,
          ...userWords(`The ${event.data.opened_by_side}'s reason`, event.data.reason),
          'Review it under Disputes in the admin console.',
        ],
      };
    case 'EscrowReleased':
      return {
        to: 'parties',
        subject: `Escrow released: ${ref}`,
        lines: [
          `${btc(event.data.seller_sats)} was released to the seller's payout address ${paidTo(event.data.destinations, 'seller') ?? escrow.payout_address ?? ''}.`,
          txLine(event.data.txid),
          'The deal is complete; you can leave a review.',
        ],
      };
    case 'EscrowRefunded':
      return {
        to: 'parties',
        subject: `Escrow refunded: ${ref}`,
        lines: [
          `${btc(event.data.buyer_sats)} was refunded to the buyer's address ${paidTo(event.data.destinations, 'buyer') ?? escrow.refund_address ?? ''}.`,
          txLine(event.data.txid),
          'The escrow is closed.',
        ],
      };
    case 'EscrowCancelled':
      return {
        to: 'parties',
        subject: `Escrow cancelled: ${ref}`,
        lines: event.data.proposal_id
          ? [
              `Escrow ${what} was cancelled before any payment, as both parties agreed.`,
              'Do not send money to its payment address; nothing more is needed from you.',
            ]
          : event.data.by === 'admin'
            ? [
                `An admin cancelled escrow ${what} before any payment.`,
                ...userWords("The admin's reason", event.data.reason),
                'Do not send money to its payment address; contact support if you have questions.',
              ]
            : [
                `Escrow ${what} was cancelled by its creator before any payment.`,
                'Do not send money to its payment address; nothing more is needed from you.',
              ],
      };
    case 'EscrowExpired':
      return {
        to: 'parties',
        subject: `Escrow expired: ${ref}`,
        lines: [
          `No payment was marked on escrow ${what} before its deadline, so it was cancelled.`,
          'Do not send money to its payment address; open a new escrow to try again.',
        ],
      };
    case 'DisputeResolved': {
      const money =
        event.data.resolution === null
          ? 'No money was moved.'
          : `Seller receives ${btc(event.data.seller_sats)}, buyer receives ${btc(event.data.buyer_sats)}.`;
      if (event.data.dispute_id === null) {
        return {
          to: 'parties',
          subject: `Settlement paid out: ${ref}`,
          lines: [
            `The settlement both parties agreed to on escrow ${what} was paid out.`,
            money,
            txLine(event.data.txid),
          ],
        };
      }
      return {
        to: 'parties',
        subject: `Dispute resolved: ${ref}`,
        lines: [`The dispute on escrow ${what} was resolved: ${event.data.outcome}`, money, txLine(event.data.txid)],
      };
    }
    case 'EscrowFrozen':
      return {
        to: 'parties',
        subject: `Escrow frozen: ${ref}`,
        lines: [
          `An admin froze escrow ${what}: nothing can be paid out, refunded or changed on it until it is unfrozen.`,
          'Nothing is needed from you now; support will contact you if they need anything.',
        ],
      };
    case 'EscrowUnfrozen':
      return {
        to: 'parties',
        subject: `Escrow unfrozen: ${ref}`,
        lines: [
          `An admin unfroze escrow ${what}: it carries on from where it stood.`,
          'The escrow page shows what the next step is.',
        ],
      };
    case 'PayoutAddressSet': {
      // A first address is news to nobody; a replacement is what a thief holding one session would do.
      if (!event.data.replaces) return null;
      const which = event.data.side === 'seller' ? "seller's payout address" : "buyer's refund address";
      return {
        to: 'everyone',
        subject: `Address changed: ${ref}`,
        lines: [
          `The ${which} of escrow ${what} was changed from ${event.data.replaces} to ${event.data.address}.`,
          event.data.held_until
            ? `No money can be sent to the new address before ${displayUtc(event.data.held_until)}.`
            : '',
          'If you did not expect this change, contact support at once and do not release or refund until it is explained.',
        ],
      };
    }
    default:
      return null;
  }
}

const paidTo = (
  destinations: readonly { to: 'buyer' | 'seller'; address: string }[] | undefined,
  side: 'buyer' | 'seller',
) => destinations?.find((d) => d.to === side)?.address;

const txLine = (txid: string | null) => (txid ? `Transaction: ${txid}` : '');

/**
 * Writes the letter out as mails to its readers, each with the escrow's figures (as the web app shows them) and a
 * link: the escrow's page for its parties, the admin console's place for it for admins. Pure.
 */
export function mailsFor(
  letter: Letter,
  escrow: Escrow,
  adminEmails: readonly string[],
  baseUrl: string,
  checkpoint: string | null = null,
): OutgoingMail[] {
  const footer = (path: string, where: string) => [
    '',
    `Escrow: ${escrow.id}`,
    ...userWords('What it is for, as its creator described it', escrow.product_service),
    `Amount: ${displayUsd(escrow.total_cents)} = ${btc(escrow.amount_sats)}`,
    `${where}: ${baseUrl}${path}`,
    ...(checkpoint ? [checkpoint] : []),
  ];
  const body = (side: Side) => (typeof letter.lines === 'function' ? letter.lines(side) : letter.lines).filter(Boolean);
  const toAdmins = adminEmails.map((to) => ({
    to,
    subject: letter.subject,
    text: [
      ...body('buyer'),
      ...footer(letter.adminPath ?? adminConsolePath.escrow(escrow.id), 'Open it in the admin console'),
    ].join('\n'),
  }));
  if (letter.to === 'admins') return toAdmins;
  const sides: Side[] = letter.to === 'parties' || letter.to === 'everyone' ? ['buyer', 'seller'] : [letter.to];
  return [
    ...(letter.to === 'everyone' ? toAdmins : []),
    ...sides.map((side) => ({
      to: side === 'buyer' ? escrow.buyer_email : escrow.seller_email,
      subject: letter.subject,
      text: [...body(side), ...footer(`/escrow/${escrow.id}`, 'Open it')].join('\n'),
    })),
  ];
}

/**
 * Inside the transaction that appends escrow events (the read models are already updated there), queues the mail
 * each event calls for. A mail exists exactly when its event was committed.
 */
export function notifyOnEscrowEvents(baseUrl: string) {
  return async (trx: Transaction<Database>, stored: StoredEvent[]) => {
    let checkpoint: Promise<string | null> | null = null;
    for (const event of stored) {
      if (event.stream_type !== 'escrow') continue;
      const escrow = await escrowOfEvent(trx, event);
      if (!escrow) continue;
      const proposalId = PROPOSAL_EVENTS.has(event.type) ? (event.data as { proposal_id: string }).proposal_id : null;
      const proposal = proposalId
        ? await trx.selectFrom('escrow_proposals').selectAll().where('id', '=', proposalId).executeTakeFirst()
        : undefined;
      for (const letter of lettersFor(event, escrow, proposal)) {
        const admins = letter.to === 'admins' || letter.to === 'everyone' ? await adminEmails(trx) : [];
        checkpoint ??= currentCheckpointLine(trx);
        await enqueueMail(trx, mailsFor(letter, escrow, admins, baseUrl, await checkpoint));
      }
      if (READY_AFTER.has(event.type)) await mailWhenReady(trx, escrow, baseUrl);
    }
  };
}

/** The events of a settlement proposal: their letters name the proposal's terms. */
const PROPOSAL_EVENTS = new Set<string>(['ProposalMade', 'ProposalAccepted', 'ProposalDeclined', 'ProposalWithdrawn']);

/** The events after which an escrow may have become ready to release. */
const READY_AFTER = new Set<string>(['ReceiptConfirmed', 'PayoutAddressSet']);

/**
 * One mail to the admins when the escrow becomes ready to release (contract 7.4), never a second for it: after the
 * events that may make it ready, and from the clock when a replaced payout address's hold runs out (ready-after-hold.ts).
 */
export async function mailWhenReady(
  trx: Transaction<Database>,
  escrow: Escrow,
  baseUrl: string,
  now = new Date().toISOString(),
) {
  // An agreed refund or split was mailed to the admins when it was accepted (proposal-letters.ts).
  if (escrow.settlement_proposal_id !== null || !actingOnRow(escrow, 'admin', now).ready_to_release) return;
  const notice = `ready_to_release:${escrow.id}`;
  if (!(await takeNotice(trx, notice))) return;
  const letter: Letter = {
    to: 'admins',
    adminPath: adminConsolePath.readyToRelease,
    subject: `Ready to release: ${escrowRef(escrow.id)}`,
    lines: [
      `Receipt of escrow ${escrowRef(escrow.id).replace(/^escrow /, '')} is confirmed and the seller's payout address is set.`,
      `Release ${btc(escrow.amount_sats)} less the fee to ${escrow.payout_address ?? ''} from the admin console.`,
    ],
  };
  await enqueueMail(trx, mailsFor(letter, escrow, await adminEmails(trx), baseUrl));
}
