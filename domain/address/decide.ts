import { conflict, DomainError, notFound, transitionNotAllowed } from '../shared/errors.ts';
import type { AddressEvent } from './events.ts';

export type AddressStatus = 'none' | 'available' | 'assigned' | 'used' | 'removed';
export interface AddressState {
  status: AddressStatus;
  address: string | null;
  escrow_id: string | null;
}

export const initialAddressState = (): AddressState => ({ status: 'none', address: null, escrow_id: null });

export function evolveAddress(state: AddressState, event: AddressEvent): AddressState {
  switch (event.type) {
    case 'AddressAdded':
      return { status: 'available', address: event.data.address, escrow_id: null };
    case 'AddressChanged':
      return { ...state, address: event.data.address };
    case 'AddressRemoved':
      return { ...state, status: 'removed' };
    case 'AddressAssigned':
      return { ...state, status: 'assigned', escrow_id: event.data.escrow_id };
    case 'AddressFreed':
      return { ...state, status: 'available', escrow_id: null };
    case 'AddressUsed':
      return { ...state, status: 'used', escrow_id: event.data.escrow_id };
  }
}

export type AddressCommand =
  | { type: 'add'; address_id: string; address: string; network: string }
  | { type: 'change'; address: string }
  | { type: 'remove' }
  | { type: 'assign'; escrow_id: string }
  | { type: 'free'; escrow_id: string }
  | { type: 'markUsed'; escrow_id: string };

const locked = (state: AddressState, doing: string) =>
  transitionNotAllowed(
    `Address is ${state.status === 'used' ? 'used' : 'assigned to an escrow'} and cannot be ${doing}`,
  );

/** The pool address's rules: only an available address is edited, removed or handed out. */
export function decideAddress(command: AddressCommand, state: AddressState): AddressEvent[] {
  if (command.type === 'add') {
    if (state.status !== 'none') throw conflict('This address already exists');
    return [
      {
        type: 'AddressAdded',
        data: { address_id: command.address_id, address: command.address, network: command.network },
      },
    ];
  }
  if (state.status === 'none' || state.status === 'removed') throw notFound('Address not found');
  switch (command.type) {
    case 'change':
      if (state.status !== 'available') throw locked(state, 'edited');
      if (command.address === state.address) return [];
      return [{ type: 'AddressChanged', data: { address: command.address } }];
    case 'remove':
      if (state.status !== 'available') throw locked(state, 'deleted');
      return [{ type: 'AddressRemoved', data: {} }];
    case 'assign':
      if (state.status !== 'available') throw new DomainError('conflict', 'This address was just taken; try again');
      return [{ type: 'AddressAssigned', data: { escrow_id: command.escrow_id } }];
    case 'free':
    case 'markUsed':
      if (state.status !== 'assigned' || state.escrow_id !== command.escrow_id) {
        throw transitionNotAllowed('Address is not assigned to this escrow');
      }
      return [
        command.type === 'free'
          ? { type: 'AddressFreed', data: { escrow_id: command.escrow_id } }
          : { type: 'AddressUsed', data: { escrow_id: command.escrow_id } },
      ];
    default: {
      const unknown: never = command;
      throw new Error(`Unknown address command ${(unknown as { type: string }).type}`);
    }
  }
}
