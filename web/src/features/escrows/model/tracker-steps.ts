import type { Escrow } from '../api/types.ts';
import { splitOf } from '../../../lib/escrow-split.ts';
import { isFinal } from './escrow-progress.ts';

type Facts = Pick<Escrow, 'status' | 'payment_marked_at' | 'buyer_confirmed_at' | 'funded_at' | 'dispute'>;

/** `halted`: the deal stands still here (a dispute or a freeze) until an admin acts. */
export type StepState = 'done' | 'current' | 'upcoming' | 'skipped' | 'halted';
export interface TrackerStep {
  label: string;
  state: StepState;
}

const HALTED: Partial<Record<Escrow['status'], string>> = { disputed: 'Disputed', frozen: 'Frozen' };

/**
 * Where the deal stands, for display only: opened, paid, verified, receipt confirmed, then how it ended. While
 * disputed or frozen the deal halts before its next step, which is shown as halted, not as next.
 */
export function trackerSteps(escrow: Facts): TrackerStep[] {
  const verified = escrow.funded_at !== null;
  const paid = verified || escrow.payment_marked_at !== null;
  const split = splitOf(escrow);
  const ended = isFinal(escrow.status);
  const endLabel = escrow.status === 'refunded' ? 'Refunded' : escrow.status === 'cancelled' ? 'Cancelled' : split ? 'Split' : 'Released';
  const flags: Array<[string, boolean]> = [
    ['Opened', true],
    ['Paid', paid],
    ['Verified', verified],
    ['Receipt confirmed', escrow.buyer_confirmed_at !== null],
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
