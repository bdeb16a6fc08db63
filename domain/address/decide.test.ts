import { describe, it } from 'vitest';
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
