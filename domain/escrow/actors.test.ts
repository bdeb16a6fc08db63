import { describe, expect, it } from 'vitest';
import { mayGive } from './actors.ts';

describe('mayGive', () => {
  it('gives the creator and counterparty roles to the parties of an escrow whose creator is known', () => {
    expect(mayGive('cancel', 'buyer', 'buyer')).toBe(true);
    expect(mayGive('cancel', 'seller', 'buyer')).toBe(false);
    expect(mayGive('agree', 'seller', 'buyer')).toBe(true);
    expect(mayGive('agree', 'buyer', 'seller')).toBe(true);
  });

  it('gives those roles to nobody before the creator is known, and never to an admin or the system', () => {
    expect(mayGive('agree', 'buyer', null)).toBe(false);
    expect(mayGive('decline', 'seller', null)).toBe(false);
    expect(mayGive('agree', 'admin', 'buyer')).toBe(false);
    expect(mayGive('agree', 'system', 'seller')).toBe(false);
    expect(mayGive('cancel', 'admin', 'buyer')).toBe(false);
  });
});
