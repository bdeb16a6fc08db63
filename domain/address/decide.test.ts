import { describe, expect, it } from 'vitest';
import { addressAggregate } from '../aggregates.ts';
import { given } from '../testing/given.ts';
import type { AddressEvent } from './events.ts';

const ID = '33333333-3333-4333-8333-333333333333';
const ESCROW = '11111111-1111-4111-8111-111111111111';
const OTHER = '11111111-1111-4111-8111-222222222222';
const added: AddressEvent = { type: 'AddressAdded', data: { address_id: ID, address: 'bc1qa', network: 'mainnet' } };
const assigned: AddressEvent = { type: 'AddressAssigned', data: { escrow_id: ESCROW } };
const used: AddressEvent = { type: 'AddressUsed', data: { escrow_id: ESCROW } };
const address = (past: AddressEvent[]) => given(addressAggregate, past);

describe('pool address', () => {
  it('is added once', () => {
    address([]).when({ type: 'add', address_id: ID, address: 'bc1qa', network: 'mainnet' }).then([added]);
    address([added])
      .when({ type: 'add', address_id: ID, address: 'bc1qa', network: 'mainnet' })
      .thenRefused('conflict');
  });

  it('is edited or removed only while available', () => {
    address([added])
      .when({ type: 'change', address: 'bc1qb' })
      .then([{ type: 'AddressChanged', data: { address: 'bc1qb' } }]);
    address([added]).when({ type: 'change', address: 'bc1qa' }).then([]);
    address([added])
      .when({ type: 'remove' })
      .then([{ type: 'AddressRemoved', data: {} }]);
    address([added, assigned])
      .when({ type: 'change', address: 'bc1qb' })
      .thenRefused('transition_not_allowed', 'cannot be edited');
    address([added, assigned]).when({ type: 'remove' }).thenRefused('transition_not_allowed', 'cannot be deleted');
    address([added, assigned, used]).when({ type: 'remove' }).thenRefused('transition_not_allowed', 'used');
  });

  it('is handed to one escrow at a time, freed or used by that escrow only, and never again once used', () => {
    address([added]).when({ type: 'assign', escrow_id: ESCROW }).then([assigned]);
    address([added, assigned]).when({ type: 'assign', escrow_id: OTHER }).thenRefused('conflict', 'just taken');
    address([added, assigned]).when({ type: 'free', escrow_id: OTHER }).thenRefused('transition_not_allowed');
    address([added, assigned])
      .when({ type: 'free', escrow_id: ESCROW })
      .then([{ type: 'AddressFreed', data: { escrow_id: ESCROW } }]);
    address([added, assigned]).when({ type: 'markUsed', escrow_id: ESCROW }).then([used]);
    address([added, assigned, used]).when({ type: 'assign', escrow_id: OTHER }).thenRefused('conflict');
  });

  it('is not found once removed', () => {
    address([added, { type: 'AddressRemoved', data: {} }])
      .when({ type: 'assign', escrow_id: ESCROW })
      .thenRefused('not_found');
  });
});

const freed: AddressEvent = { type: 'AddressFreed', data: { escrow_id: ESCROW } };
const state = (events: AddressEvent[]) => events.reduce(addressAggregate.evolve, addressAggregate.initial());

describe('pool address, in words', () => {
  it('says why it cannot be added, edited or removed', () => {
    address([added])
      .when({ type: 'add', address_id: ID, address: 'bc1qa', network: 'mainnet' })
      .thenRefused('conflict', 'This address already exists');
    address([added, assigned])
      .when({ type: 'change', address: 'bc1qb' })
      .thenRefused('transition_not_allowed', 'Address is assigned to an escrow and cannot be edited');
    address([added, assigned, used])
      .when({ type: 'change', address: 'bc1qb' })
      .thenRefused('transition_not_allowed', 'Address is used and cannot be edited');
    address([added, assigned, used])
      .when({ type: 'remove' })
      .thenRefused('transition_not_allowed', 'Address is used and cannot be deleted');
  });

  it('is not found before it is added nor after it is removed', () => {
    address([]).when({ type: 'remove' }).thenRefused('not_found', 'Address not found');
    address([added, { type: 'AddressRemoved', data: {} }])
      .when({ type: 'change', address: 'bc1qb' })
      .thenRefused('not_found', 'Address not found');
  });

  it('is freed or used only by the escrow it is assigned to, saying so', () => {
    address([added])
      .when({ type: 'markUsed', escrow_id: ESCROW })
      .thenRefused('transition_not_allowed', 'Address is not assigned to this escrow');
    address([added, assigned])
      .when({ type: 'markUsed', escrow_id: OTHER })
      .thenRefused('transition_not_allowed', 'Address is not assigned to this escrow');
    address([added, assigned, used])
      .when({ type: 'free', escrow_id: ESCROW })
      .thenRefused('transition_not_allowed', 'Address is not assigned to this escrow');
  });

  it('goes back to the pool when freed, with the address it was changed to', () => {
    const changed: AddressEvent = { type: 'AddressChanged', data: { address: 'bc1qb' } };
    expect(state([])).toEqual({ status: 'none', address: null, escrow_id: null });
    expect(state([added, changed])).toEqual({ status: 'available', address: 'bc1qb', escrow_id: null });
    expect(state([added, changed, assigned])).toEqual({ status: 'assigned', address: 'bc1qb', escrow_id: ESCROW });
    expect(state([added, changed, assigned, freed])).toEqual({
      status: 'available',
      address: 'bc1qb',
      escrow_id: null,
    });
    expect(state([added, assigned, used])).toEqual({ status: 'used', address: 'bc1qa', escrow_id: ESCROW });
    address([added, assigned, freed])
      .when({ type: 'assign', escrow_id: OTHER })
      .then([{ type: 'AddressAssigned', data: { escrow_id: OTHER } }]);
    address([added, changed]).when({ type: 'change', address: 'bc1qb' }).then([]);
  });

  it('names an unknown command', () => {
    expect(() =>
      addressAggregate.decide({ type: 'rename' } as never, state([added]), {
        now: '2026-01-01T00:00:00.000Z',
        newId: () => ID,
        actor: ID,
      }),
    ).toThrow('Unknown address command rename');
  });
});
