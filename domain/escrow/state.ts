import { type ActorScope, createActor, type SnapshotFrom } from 'xstate';
import type { EscrowEvent } from './events.ts';
import { type EscrowContext, type EscrowMachineEvent, escrowMachine } from './machine.ts';

export type EscrowStatus =
  'draft' | 'pending_payment' | 'funded' | 'disputed' | 'frozen' | 'released' | 'refunded' | 'cancelled';
export type EscrowSnapshot = SnapshotFrom<typeof escrowMachine>;

export interface EscrowState {
  snapshot: EscrowSnapshot;
  status: EscrowStatus;
  context: EscrowContext;
  /** The user id each side is bound to (the creator's from the start, the counterparty's once bound). */
  parties: { buyer: string | null; seller: string | null };
}

export function escrowStatusOf(snapshot: EscrowSnapshot): EscrowStatus {
  const value = snapshot.value as string | { active: string };
  return (typeof value === 'string' ? value : value.active) as EscrowStatus;
}

const stateOf = (snapshot: EscrowSnapshot, parties: EscrowState['parties']): EscrowState => ({
  snapshot,
  status: escrowStatusOf(snapshot),
  context: snapshot.context.deal,
  parties,
});

/**
 * The one actor scope every fold's transitions share. xstate's `transition()` helper builds a new actor for each call
 * (a tenth of verify-export's time, a million times over); the escrow machine invokes and spawns nothing and its
 * actions only assign, so a scope that executes nothing carries nothing from one transition to the next.
 */
let inertScope: ActorScope<EscrowSnapshot, EscrowMachineEvent> | undefined;
function scope() {
  if (!inertScope) {
    const self = createActor(escrowMachine);
    inertScope = {
      self,
      id: '',
      sessionId: '',
      system: self.system,
      logger: () => {},
      defer: () => {},
      emit: () => {},
      stopChild: () => {},
      actionExecutor: () => {},
    };
  }
  return inertScope;
}

/**
 * The state before an escrow's first event: built once (building it costs as much as a transition), shared, never
 * changed: every fold makes a new state from the one before.
 */
let initial: EscrowState | undefined;
export const initialEscrowState = (): EscrowState =>
  (initial ??= Object.freeze(
    stateOf(escrowMachine.getInitialSnapshot(scope()), Object.freeze({ buyer: null, seller: null })),
  ));

/** Applies one stored event. A stored event the rules refuse means the stream is corrupt: never ignore it. */
export function evolveEscrow(state: EscrowState, event: EscrowEvent & { occurred_at?: string }): EscrowState {
  // Who a side belongs to is not part of the lifecycle: it may be recorded in any state, final ones included.
  if (event.type === 'PartyBound') {
    if (state.status === 'draft') throw new Error('Stored event PartyBound before the escrow was created');
    return { ...state, parties: { ...state.parties, [event.data.side]: event.data.user_id } };
  }
  // The machine reads an event's type, data and time only: a copy of those, not of the whole stored event.
  const machineEvent = { type: event.type, data: event.data, at: event.occurred_at ?? '' } as EscrowMachineEvent;
  // An event the machine does not take leaves its snapshot as it was (xstate answers the same object), so `can`, which
  // works the transition out a second time, is asked only then: to tell a refused event from one that changes nothing.
  // A sixth of the machine's time in a fold (state.test.ts holds the two ways of refusing to each other).
  const next = escrowMachine.transition(state.snapshot, machineEvent, scope());
  if (next === state.snapshot && !state.snapshot.can(machineEvent)) {
    throw new Error(`Stored event ${event.type} is not allowed while ${state.status}`);
  }
  const parties =
    event.type === 'EscrowCreated'
      ? { ...state.parties, [event.data.creator_side]: event.data.created_by }
      : state.parties;
  return stateOf(next, parties);
}

export const foldEscrow = (events: readonly (EscrowEvent & { occurred_at?: string })[]): EscrowState =>
  events.reduce((state, event) => evolveEscrow(state, event), initialEscrowState());
