import type { DomainEvent, StreamType } from '../../domain/events.ts';
import type { DecideContext } from '../../domain/shared/context.ts';

/** What the write path needs to know of one aggregate: how to rebuild its state and how it decides. */
export interface Aggregate<State, Command> {
  streamType: StreamType;
  initial: () => State;
  evolve: (state: State, event: DomainEvent) => State;
  decide: (command: Command, state: State, ctx: DecideContext) => DomainEvent[];
  /** Version of the rules, recorded in each event's metadata (the escrow machine's version). */
  rulesVersion?: number;
}
