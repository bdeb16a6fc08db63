import { describe, expect, it } from 'vitest';
import type { EscrowEvent } from './events.ts';
import { foldEscrow } from './state.ts';
import { CREATOR_ID, histories, sample } from './test-fixtures.ts';

const bySeller: EscrowEvent = {
  ...sample.EscrowCreated,
  data: { ...sample.EscrowCreated.data, creator_side: 'seller' },
};

describe('foldEscrow: the parties', () => {
  it("binds the creator's side to the creator, and only the creation does", () => {
    expect(foldEscrow(histories.pendingFresh).parties).toStrictEqual({ buyer: CREATOR_ID, seller: null });
    expect(foldEscrow([bySeller]).parties).toStrictEqual({ buyer: null, seller: CREATOR_ID });
    expect(foldEscrow(histories.funded).parties).toStrictEqual({ buyer: CREATOR_ID, seller: null });
  });

  it('binds the counterparty with PartyBound, even once the deal has ended', () => {
    const seller = sample.PartyBound.data.user_id;
    expect(foldEscrow([...histories.released, sample.PartyBound]).parties).toStrictEqual({
      buyer: CREATOR_ID,
      seller,
    });
  });

  it('refuses a PartyBound stored before the escrow was created', () => {
    expect(() => foldEscrow([sample.PartyBound])).toThrow('Stored event PartyBound before the escrow was created');
  });
});
