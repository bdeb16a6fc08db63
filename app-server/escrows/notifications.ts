import type { Kysely, Selectable, Transaction } from 'kysely';
import { displayBtc, displayUsd } from '../../domain/money.ts';
import type { StoredEvent } from '../../domain/stored-event.ts';
import type { EscrowRow } from '../../projections/escrows/table.ts';
import { idOfStream } from '../../projections/stream-ids.ts';
import type { Database } from '../db/schema.ts';
import { enqueueMail, type OutgoingMail } from '../mail/outbox.ts';

type Escrow = Selectable<EscrowRow>;
type Side = 'buyer' | 'seller';
interface Letter {
  to: 'parties' | 'buyer' | 'seller' | 'admins';
  subject: string;
  /** What happened and what the reader does next; per side when they differ. */
  lines: string[] | ((side: Side) => string[]);
  /** Admin letters: where in the admin console to act (default: the escrow in the Escrows tab). */
  adminPath?: string;
}

const btc = (sats: number | null) => displayBtc(sats ?? 0);
const otherSide = (side: Side): Side => (side === 'buyer' ? 'seller' : 'buyer');

/** The admin console's places, as its tabs read them from the URL. */
export const adminConsolePath = {
  verifications: '/admin?tab=verifications',
  disputes: '/admin?tab=disputes',
  addresses: '/admin?tab=addresses',
  escrow: (escrowId: string) => `/admin?tab=escrows&escrow=${encodeURIComponent(escrowId)}`,
};

/** Every letter an escrow event calls for (none when nobody needs to hear of it). Pure. */
export function lettersFor(event: StoredEvent, escrow: Escrow): Letter[] {
  const letter = letterFor(event, escrow);
  const letters = letter ? [letter] : [];
  if (event.type === 'DisputeOpened') letters.push(disputeNoticeToOtherParty(event.data.opened_by_side, escrow));
  return letters;
}

/** The party who did not open the dispute hears of it: their money (or their delivery) is now on hold. */
function disputeNoticeToOtherParty(openedBy: Side, escrow: Escrow): Letter {
  const reader = otherSide(openedBy);
  return {
    to: reader,
    subject: `Dispute opened: ${escrow.product_service}`,
    lines: [
      `The ${openedBy} opened a dispute on escrow "${escrow.product_service}". Nothing moves until an admin resolves it.`,
      reader === 'seller'
        ? 'An admin will look at both sides and may contact you: keep proof of what you delivered and when, and set your payout address on the escrow page if you have not yet.'
        : 'An admin will look at both sides and may contact you: keep proof of what you received (or did not), and set a refund address on the escrow page if you have not yet.',
    ],
  };
}

/** The main letter an escrow event calls for, or null when nobody needs to hear of it. Pure. */
export function letterFor(event: StoredEvent, escrow: Escrow): Letter | null {
  const what = `"${escrow.product_service}"`;
  switch (event.type) {
    case 'PaymentMarked':
      return {
        to: 'admins',
        adminPath: adminConsolePath.verifications,
        subject: `Payment marked: ${escrow.product_service}`,
        lines: [
          `The buyer marked escrow ${what} as paid (${btc(escrow.amount_sats)} to ${escrow.assigned_address ?? 'no address'}).`,
          `Check the payment on the chain, then verify or reject it under Verifications in the admin console.`,
        ],
      };
    case 'PaymentRejected':
      return {
        to: 'buyer',
        subject: `Payment not confirmed: ${escrow.product_service}`,
        lines: [
          `The payment you marked on escrow ${what} could not be confirmed on the chain.`,
          `Admin's note: ${event.data.notes || '(none)'}`,
          `Check that ${btc(escrow.amount_sats)} went to ${escrow.assigned_address ?? 'the payment address'}, then mark it as paid again.`,
        ],
      };
    case 'PaymentVerified':
      return {
        to: 'parties',
        subject: `Escrow funded: ${escrow.product_service}`,
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
        subject: `Dispute opened: ${escrow.product_service}`,
        lines: [`The ${event.data.opened_by_side} opened a dispute on escrow ${what}.`, `Reason: ${event.data.reason}`, 'Review it under Disputes in the admin console.'],
      };
    case 'EscrowReleased':
      return {
        to: 'parties',
        subject: `Escrow released: ${escrow.product_service}`,
        lines: [`${btc(event.data.seller_sats)} was released to the seller's payout address ${escrow.payout_address ?? ''}.`, txLine(event.data.txid), 'The deal is complete; you can leave a review.'],
      };
    case 'EscrowRefunded':
      return {
        to: 'parties',
        subject: `Escrow refunded: ${escrow.product_service}`,
        lines: [`${btc(event.data.buyer_sats)} was refunded to the buyer's address ${escrow.refund_address ?? ''}.`, txLine(event.data.txid), 'The escrow is closed.'],
      };
    case 'EscrowCancelled':
      return {
        to: 'parties',
        subject: `Escrow cancelled: ${escrow.product_service}`,
        lines: [`Escrow ${what} was cancelled by its creator before any payment.`, 'Do not send money to its payment address; nothing more is needed from you.'],
      };
    case 'EscrowExpired':
      return {
        to: 'parties',
        subject: `Escrow expired: ${escrow.product_service}`,
        lines: [`No payment was marked on escrow ${what} before its deadline, so it was cancelled.`, 'Do not send money to its payment address; open a new escrow to try again.'],
      };
    case 'DisputeResolved': {
      const money =
        event.data.resolution === null
          ? 'No money was moved.'
          : `Seller receives ${btc(event.data.seller_sats)}, buyer receives ${btc(event.data.buyer_sats)}.`;
      return {
        to: 'parties',
        subject: `Dispute resolved: ${escrow.product_service}`,
        lines: [`The dispute on escrow ${what} was resolved: ${event.data.outcome}`, money, txLine(event.data.txid)],
      };
    }
    case 'EscrowFrozen':
      return {
        to: 'parties',
        subject: `Escrow frozen: ${escrow.product_service}`,
        lines: [
          `An admin froze escrow ${what}: nothing can be paid out, refunded or changed on it until it is unfrozen.`,
          'Nothing is needed from you now; support will contact you if they need anything.',
        ],
      };
    case 'EscrowUnfrozen':
      return {
        to: 'parties',
        subject: `Escrow unfrozen: ${escrow.product_service}`,
        lines: [`An admin unfroze escrow ${what}: it carries on from where it stood.`, 'The escrow page shows what the next step is.'],
      };
    default:
      return null;
  }
}

const txLine = (txid: string | null) => (txid ? `Transaction: ${txid}` : '');

/**
 * Writes the letter out as mails to its readers, each with the escrow's figures (as the web app shows them) and a
 * link: the escrow's page for its parties, the admin console's place for it for admins. Pure.
 */
export function mailsFor(letter: Letter, escrow: Escrow, adminEmails: readonly string[], baseUrl: string): OutgoingMail[] {
  const footer = (path: string, where: string) => [
    '',
    `Escrow: ${escrow.product_service} (${escrow.id})`,
    `Amount: ${displayUsd(escrow.total_cents)} = ${btc(escrow.amount_sats)}`,
    `${where}: ${baseUrl}${path}`,
  ];
  const body = (side: Side) => (typeof letter.lines === 'function' ? letter.lines(side) : letter.lines).filter(Boolean);
  if (letter.to === 'admins') {
    const adminPath = letter.adminPath ?? adminConsolePath.escrow(escrow.id);
    return adminEmails.map((to) => ({ to, subject: letter.subject, text: [...body('buyer'), ...footer(adminPath, 'Open it in the admin console')].join('\n') }));
  }
  const sides: Side[] = letter.to === 'parties' ? ['buyer', 'seller'] : [letter.to];
  return sides.map((side) => ({
    to: side === 'buyer' ? escrow.buyer_email : escrow.seller_email,
    subject: letter.subject,
    text: [...body(side), ...footer(`/escrow/${escrow.id}`, 'Open it')].join('\n'),
  }));
}

/**
 * An `alsoWrite` hook: inside the transaction that appends escrow events (the read models are already updated
 * there), queues the mail each event calls for. A mail exists exactly when its event was committed.
 */
export function notifyOnEscrowEvents(baseUrl: string) {
  return async (trx: Transaction<Database>, stored: StoredEvent[]) => {
    for (const event of stored) {
      if (event.stream_type !== 'escrow') continue;
      const escrow = await trx.selectFrom('escrows').selectAll().where('id', '=', idOfStream(event.stream_id)).executeTakeFirst();
      if (!escrow) continue;
      for (const letter of lettersFor(event, escrow)) {
        const admins = letter.to === 'admins' ? await adminEmails(trx) : [];
        await enqueueMail(trx, mailsFor(letter, escrow, admins, baseUrl));
      }
    }
  };
}

export async function adminEmails(trx: Kysely<Database>): Promise<string[]> {
  const rows = await trx.selectFrom('users').select('email').where('role', '=', 'admin').where('is_frozen', '=', false).execute();
  return rows.map((r) => r.email);
}
