import { initialTransition, type SnapshotFrom, transition } from 'xstate';
import type { EscrowEvent } from './events.ts';
import { type EscrowContext, type EscrowMachineEvent, escrowMachine } from './machine.ts';

export type EscrowStatus =
  | 'draft'
  | 'pending_payment'
  | 'funded'
  | 'disputed'
  | 'frozen'
  | 'released'
  | 'refunded'
  | 'cancelled';
export type EscrowSnapshot = SnapshotFrom<typeof escrowMachine>;

export interface EscrowState {
  snapshot: EscrowSnapshot;
  status: EscrowStatus;
  context: EscrowContext;
}

export function escrowStatusOf(snapshot: EscrowSnapshot): EscrowStatus {
  const value = snapshot.value as string | { active: string };
  return (typeof value === 'string' ? value : value.active) as EscrowStatus;
}

const stateOf = (snapshot: EscrowSnapshot): EscrowState => ({
  snapshot,
  status: escrowStatusOf(snapshot),
  context: snapshot.context,
});

export const initialEscrowState = (): EscrowState => stateOf(initialTransition(escrowMachine)[0]);

/** Applies one stored event. A stored event the rules refuse means the stream is corrupt: never ignore it. */
export function evolveEscrow(
  state: EscrowState,
  event: EscrowEvent & { occurred_at?: string },
  at?: string,
): EscrowState {
  const machineEvent = { ...event, at: at ?? event.occurred_at ?? '' } as EscrowMachineEvent;
  if (!state.snapshot.can(machineEvent)) {
    throw new Error(`Stored event ${event.type} is not allowed while ${state.status}`);
  }
  return stateOf(transition(escrowMachine, state.snapshot, machineEvent)[0]);
}

export const foldEscrow = (events: readonly (EscrowEvent & { occurred_at?: string })[]): EscrowState =>
  events.reduce((state, event) => evolveEscrow(state, event), initialEscrowState());
