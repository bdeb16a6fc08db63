import { splitOf } from '../../../lib/escrow-split.ts';
import type { Escrow } from '../api/types.ts';
import { isFinal } from './escrow-progress.ts';

type Facts = Pick<
  Escrow,
  | 'status'
  | 'agreed_at'
  | 'declined_at'
  | 'payment_marked_at'
  | 'funded_at'
  | 'shipped_at'
  | 'inspection_days'
  | 'received_at'
  | 'inspection_ends_at'
  | 'buyer_confirmed_at'
  | 'dispute'
  | 'proposals'
>;

/** `halted`: the deal stands still here (a dispute or a freeze) until an admin acts. */
export type StepState = 'done' | 'current' | 'upcoming' | 'skipped' | 'halted';
export interface TrackerStep {
  label: string;
  state: StepState;
}

const HALTED: Partial<Record<Escrow['status'], string>> = { disputed: 'Disputed', frozen: 'Frozen' };
const DAY_MS = 86_400_000;

/** "Inspection ends in 3 days" while it runs, "Inspection (N days)" before. */
function inspectionLabel(escrow: Facts, now: Date): string {
  const days = escrow.inspection_days ?? 0;
  if (!escrow.inspection_ends_at || escrow.buyer_confirmed_at)
    return `Inspection (${days} ${days === 1 ? 'day' : 'days'})`;
  const left = Math.max(0, Math.ceil((new Date(escrow.inspection_ends_at).getTime() - now.getTime()) / DAY_MS));
  return left === 0 ? 'Inspection ends today' : `Inspection ends in ${left} ${left === 1 ? 'day' : 'days'}`;
}

/**
 * Where the deal stands, for display only: opened, agreed, paid, verified, shipped, received, the inspection, accepted,
 * then how it ended. While disputed or frozen the deal halts before its next step, shown as halted, not as next.
 */
export function trackerSteps(escrow: Facts, now: Date = new Date()): TrackerStep[] {
  const verified = escrow.funded_at !== null;
  const accepted = escrow.buyer_confirmed_at !== null;
  const received = accepted || Boolean(escrow.received_at ?? escrow.inspection_ends_at);
  const ended = isFinal(escrow.status);
  const declined = Boolean(escrow.declined_at);
  // A decline after payment ends in a refund; before it, in the escrow's cancellation.
  const endLabel =
    escrow.status === 'refunded' || (declined && !ended)
      ? 'Refunded'
      : escrow.status === 'cancelled'
        ? 'Cancelled'
        : splitOf(escrow)
          ? 'Split'
          : 'Released';
  // An answer without the agreement or shipment fields comes from before those steps were recorded: not shown.
  const recordsAgreement = escrow.agreed_at !== undefined;
  const recordsShipment = escrow.shipped_at !== undefined;
  const paymentFlags: Array<[string, boolean]> = [
    ['Paid', verified || escrow.payment_marked_at !== null],
    ['Verified', verified],
  ];
  const deliveryFlags: Array<[string, boolean]> = recordsShipment
    ? [
        ['Shipped', Boolean(escrow.shipped_at) || received],
        ['Received', received],
        ...((escrow.inspection_days ?? 0) > 0 ? [[inspectionLabel(escrow, now), accepted] as [string, boolean]] : []),
        ['Accepted', accepted],
      ]
    : [['Receipt confirmed', accepted]];
  // Declined terms: no delivery follows, only the money's way back (or nothing, if none was paid).
  const flags: Array<[string, boolean]> = declined
    ? [['Opened', true], ['Declined', true], ...paymentFlags, [endLabel, ended]]
    : [
        ['Opened', true],
        ...(recordsAgreement ? [['Agreed', escrow.agreed_at !== null] as [string, boolean]] : []),
        ...paymentFlags,
        ...deliveryFlags,
        [endLabel, ended],
      ];
  const halted = HALTED[escrow.status];
  const steps: TrackerStep[] = [];
  let currentTaken = ended;
  for (const [label, done] of flags) {
    if (done) steps.push({ label, state: 'done' });
    else if (ended) steps.push({ label, state: 'skipped' });
    else if (currentTaken) steps.push({ label, state: 'upcoming' });
    else {
      currentTaken = true;
      if (halted) steps.push({ label: halted, state: 'halted' }, { label, state: 'upcoming' });
      else steps.push({ label, state: 'current' });
    }
  }
  return steps;
}
