import type { Selectable } from 'kysely';
import { displayBtc } from '../../domain/money.ts';
import { displayUtc } from '../../domain/shared/display-time.ts';
import { proposalTerms } from '../../domain/escrow/proposal-words.ts';
import type { StoredEvent } from '../../domain/stored-event.ts';
import type { EscrowRow } from '../../projections/escrows/table.ts';
import type { ProposalsTables } from '../../projections/proposals/table.ts';
import { adminConsolePath } from '../mail/admins.ts';
import { escrowRef, userWords } from '../mail/user-words.ts';
import type { Letter } from './letter.ts';

type Escrow = Selectable<EscrowRow>;
export type ProposalRow = Selectable<ProposalsTables['escrow_proposals']>;
type Side = 'buyer' | 'seller';

const otherSide = (side: Side): Side => (side === 'buyer' ? 'seller' : 'buyer');
const moneyLine = (p: ProposalRow) =>
  p.seller_sats === null
    ? ''
    : `The seller would receive ${displayBtc(Number(p.seller_sats))} and the buyer ${displayBtc(Number(p.buyer_sats ?? 0))}.`;

/**
 * The letters a settlement proposal's event calls for (contract 7.5): a proposal to the other side, an answer to the
 * one who made it (a withdrawal to the other side), and an agreed refund or split to the admins, who execute it. Pure.
 */
export function proposalLetters(event: StoredEvent, escrow: Escrow, proposal: ProposalRow | undefined): Letter[] {
  if (!proposal) return [];
  const what = escrowRef(escrow.id).replace(/^escrow /, '');
  const terms = proposalTerms(proposal);
  const subject = (head: string) => `${head}: ${escrowRef(escrow.id)}`;
  const maker = proposal.proposed_by;
  switch (event.type) {
    case 'ProposalMade':
      return [
        {
          to: otherSide(maker),
          subject: subject('Settlement proposed'),
          lines: [
            `The ${maker} of escrow ${what} proposes ${terms}.`,
            moneyLine(proposal),
            ...(proposal.note ? userWords(`The ${maker}'s note`, proposal.note) : []),
            'Accept or decline it on the escrow page.',
          ],
        },
      ];
    case 'ProposalAccepted': {
      const { payment_due_at, inspection_ends_at } = event.data;
      const settles = proposal.kind === 'refund' || proposal.kind === 'split';
      const outcome = payment_due_at
        ? `The payment deadline is now ${displayUtc(payment_due_at)}.`
        : inspection_ends_at
          ? `The inspection period now ends ${displayUtc(inspection_ends_at)}.`
          : settles
            ? 'An admin now pays it out as agreed; no dispute is needed. Make sure your address for it is set on the escrow page.'
            : 'The escrow is cancelled.';
      const toMaker: Letter = {
        to: maker,
        subject: subject('Proposal accepted'),
        lines: [
          `The ${otherSide(maker)} accepted your proposal on escrow ${what}: ${terms}.`,
          moneyLine(proposal),
          outcome,
        ],
      };
      if (!settles) return [toMaker];
      const missing = [
        ...(escrow.refund_address ? [] : ["the buyer's refund address"]),
        ...(proposal.kind === 'split' && !escrow.payout_address ? ["the seller's payout address"] : []),
      ];
      const toAdmins: Letter = {
        to: 'admins',
        adminPath: adminConsolePath.readyToRelease,
        subject: subject('Settlement agreed'),
        lines: [
          `Both parties of escrow ${what} agreed to ${terms}.`,
          moneyLine(proposal),
          escrow.funded_at === null ? 'The payment is marked but not verified yet: verify it first.' : '',
          missing.length ? `Waiting for ${missing.join(' and ')}.` : '',
          `Execute it from the admin console (${proposal.kind === 'refund' ? 'Refund' : 'Resolve'}): no outcome text is needed.`,
        ],
      };
      return [toMaker, toAdmins];
    }
    case 'ProposalDeclined':
      return [
        {
          to: maker,
          subject: subject('Proposal declined'),
          lines: [
            `The ${otherSide(maker)} declined your proposal on escrow ${what}: ${terms}.`,
            ...(event.data.reason ? userWords(`The ${otherSide(maker)}'s reason`, event.data.reason) : []),
            'The escrow carries on as before; you may propose something else on the escrow page.',
          ],
        },
      ];
    case 'ProposalWithdrawn':
      return [
        {
          to: otherSide(maker),
          subject: subject('Proposal withdrawn'),
          lines: [`The ${maker} withdrew their proposal on escrow ${what}: ${terms}.`, 'Nothing is needed from you.'],
        },
      ];
    default:
      return [];
  }
}
