import {
  type AddressCommand,
  type AddressState,
  decideAddress,
  evolveAddress,
  initialAddressState,
} from './address/decide.ts';
import type { AddressEvent } from './address/events.ts';
import { decideEscrow, type EscrowCommand } from './escrow/decide.ts';
import type { EscrowEvent } from './escrow/events.ts';
import { ESCROW_MACHINE_VERSION } from './escrow/machine.ts';
import { type EscrowState, evolveEscrow, initialEscrowState } from './escrow/state.ts';
import type { DomainEvent, StreamType } from './events.ts';
import {
  decideReview,
  evolveReview,
  initialReviewState,
  type ReviewCommand,
  type ReviewState,
} from './review/decide.ts';
import type { ReviewEvent } from './review/events.ts';
import {
  decideSettings,
  evolveSettings,
  initialSettingsState,
  type SettingsCommand,
  type SettingsState,
} from './settings/decide.ts';
import type { SettingsEvent } from './settings/events.ts';
import type { DecideContext } from './shared/context.ts';
import type { TransparencyEvent } from './transparency/events.ts';
import {
  decideLogKey,
  evolveLogKey,
  initialLogKeyState,
  type LogKeyCommand,
  type LogKeyState,
} from './transparency/log-key.ts';
import { decideUser, evolveUser, initialUserState, type UserCommand, type UserState } from './user/decide.ts';
import type { UserEvent } from './user/events.ts';

/** What the write path needs to know of one aggregate: how to rebuild its state and how it decides. */
export interface Aggregate<State, Command> {
  streamType: StreamType;
  initial: () => State;
  evolve: (state: State, event: DomainEvent & { occurred_at?: string }) => State;
  decide: (command: Command, state: State, ctx: DecideContext) => DomainEvent[];
  /** Version of the rules, recorded in each event's metadata. */
  rulesVersion?: number;
}

export const escrowAggregate: Aggregate<EscrowState, EscrowCommand> = {
  streamType: 'escrow',
  initial: initialEscrowState,
  evolve: (state, event) => evolveEscrow(state, event as EscrowEvent & { occurred_at?: string }),
  decide: decideEscrow,
  rulesVersion: ESCROW_MACHINE_VERSION,
};

export const addressAggregate: Aggregate<AddressState, AddressCommand> = {
  streamType: 'address',
  initial: initialAddressState,
  evolve: (state, event) => evolveAddress(state, event as AddressEvent),
  decide: (command, state) => decideAddress(command, state),
};

export const userAggregate: Aggregate<UserState, UserCommand> = {
  streamType: 'user',
  initial: initialUserState,
  evolve: (state, event) => evolveUser(state, event as UserEvent),
  decide: decideUser,
};

export const reviewAggregate: Aggregate<ReviewState, ReviewCommand> = {
  streamType: 'review',
  initial: initialReviewState,
  evolve: (state, event) => evolveReview(state, event as ReviewEvent),
  decide: (command, state) => decideReview(command, state),
};

export const settingsAggregate: Aggregate<SettingsState, SettingsCommand> = {
  streamType: 'settings',
  initial: initialSettingsState,
  evolve: (state, event) => evolveSettings(state, event as SettingsEvent),
  decide: (command, state) => decideSettings(command, state),
};

/** The transparency log's signing keys (`settings:log-key`). */
export const logKeyAggregate: Aggregate<LogKeyState, LogKeyCommand> = {
  streamType: 'settings',
  initial: initialLogKeyState,
  evolve: (state, event) => evolveLogKey(state, event as TransparencyEvent),
  decide: (command, state) => decideLogKey(command, state),
};
